import { useState, type SyntheticEvent } from 'react';
import type { ServerBindSetting } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { useSession } from '../hooks/session-context';
import { ConfirmDialog } from './confirm-dialog';
import { Notice } from './notice';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** The server's bind address and port: stored now, applied on restart; exposing the LAN in observe mode is confirmed. */
export function ServerBindSection({
  server,
  onSaved,
}: {
  server: ServerBindSetting;
  onSaved: (s: ServerBindSetting) => void;
}) {
  const { me } = useSession();
  const [host, setHost] = useState(server.host);
  const [port, setPort] = useState(String(server.port));
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const exposes = !LOOPBACK.has(host.trim());

  const save = async (): Promise<void> => {
    try {
      const saved = await consoleApi.setServerBind(host.trim(), Number(port));
      onSaved(saved);
      setMessage({
        tone: 'success',
        text: `Saved: the server will listen on ${saved.host}:${saved.port} after a restart.`,
      });
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    }
  };
  const submit = (event: SyntheticEvent): void => {
    event.preventDefault();
    if (exposes && me.authMode === 'observe') setConfirming(true);
    else void save();
  };

  return (
    <form onSubmit={submit}>
      <p className="muted">
        Currently listening on {server.current.host}:{server.current.port}.
      </p>
      <div className="row">
        <label className="field">
          <span>Bind address</span>
          <input
            value={host}
            onChange={(e) => {
              setHost(e.target.value);
            }}
            required
          />
        </label>
        <label className="field">
          <span>Port</span>
          <input
            type="number"
            min={1}
            max={65535}
            value={port}
            onChange={(e) => {
              setPort(e.target.value);
            }}
            required
          />
        </label>
      </div>
      {exposes && me.authMode === 'observe' && (
        <Notice tone="warning" title="This exposes the API on the network while in observe mode">
          Anyone on the LAN could call the API without a key. Switch to enforce mode first.
        </Notice>
      )}
      {server.pendingRestart && (
        <Notice tone="info">A changed address is stored and applies when the server restarts.</Notice>
      )}
      <button type="submit" className="primary">
        Save bind address
      </button>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      <ConfirmDialog
        open={confirming}
        title="Expose the API on the network in observe mode?"
        confirmLabel="Expose anyway"
        danger
        onCancel={() => {
          setConfirming(false);
        }}
        onConfirm={() => {
          setConfirming(false);
          void save();
        }}
      >
        <p>
          With the bind address {host}, other machines can reach the API. In observe mode, requests without a
          valid API key are processed.
        </p>
      </ConfirmDialog>
    </form>
  );
}
