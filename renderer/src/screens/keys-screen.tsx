import { useCallback, useEffect, useState, type SyntheticEvent } from 'react';
import type { ApiKeyView, AuthMode, CreatedKeyResponse } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { Notice, Spinner } from '../components/notice';
import { useSession } from '../hooks/session-context';

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

/** API keys: issue (shown once), list, revoke; and the observe/enforce switch. */
export function KeysScreen() {
  const { me, refresh } = useSession();
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<CreatedKeyResponse | null>(null);
  const [error, setError] = useState('');
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const [modeTarget, setModeTarget] = useState<AuthMode | null>(null);

  const load = useCallback(async () => {
    try {
      setKeys((await consoleApi.keys()).keys);
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const issue = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    setError('');
    try {
      setCreated(await consoleApi.createKey(description));
      setDescription('');
      await load();
    } catch (caught) {
      setError(errorMessage(caught));
    }
  };

  const act = async (work: () => Promise<unknown>): Promise<void> => {
    setError('');
    try {
      await work();
    } catch (caught) {
      setError(errorMessage(caught));
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <div className="card">
        <h2>Authentication mode</h2>
        <p>
          Current mode: <strong data-testid="auth-mode">{me.authMode}</strong>.{' '}
          {me.authMode === 'observe'
            ? 'Requests without a valid key are logged and still processed.'
            : 'Requests without a valid key are refused with 401.'}
        </p>
        <button
          type="button"
          className={me.authMode === 'observe' ? 'primary' : 'danger'}
          onClick={() => {
            setModeTarget(me.authMode === 'observe' ? 'enforce' : 'observe');
          }}
        >
          {me.authMode === 'observe' ? 'Switch to enforce' : 'Switch back to observe'}
        </button>
      </div>

      <form className="card" onSubmit={(e) => void issue(e)}>
        <h2>Issue a key</h2>
        <label className="field">
          <span>Use-case description</span>
          <input
            value={description}
            onChange={(e) => {
              setDescription(e.target.value);
            }}
            placeholder="e.g. Branch onboarding backend, Leeds"
            minLength={3}
            maxLength={500}
            required
          />
        </label>
        <button type="submit" className="primary">
          Issue key
        </button>
        {created && (
          <Notice tone="success" title="Key issued: copy it now, it will not be shown again">
            <div className="secret-row">
              <code data-testid="new-key">{created.key}</code>
              <CopyButton text={created.key} label="Copy the new API key" />
            </div>
          </Notice>
        )}
      </form>
      {error && <Notice tone="error">{error}</Notice>}

      <div className="card">
        <h2>Issued keys</h2>
        {keys === null ? (
          <Spinner label="Loading keys…" />
        ) : keys.length === 0 ? (
          <p className="muted">No key issued yet.</p>
        ) : (
          <table aria-label="API keys">
            <thead>
              <tr>
                <th scope="col">Prefix</th>
                <th scope="col">Description</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <td>
                    <code>idv_{key.prefix}_…</code>
                  </td>
                  <td>{key.description}</td>
                  <td>{when(key.createdAt)}</td>
                  <td>{when(key.lastUsedAt)}</td>
                  <td>
                    {key.revokedAt ? (
                      <span className="badge bad">revoked {when(key.revokedAt)}</span>
                    ) : (
                      <span className="badge ok">active</span>
                    )}
                  </td>
                  <td>
                    {!key.revokedAt && (
                      <button
                        type="button"
                        className="danger small"
                        onClick={() => {
                          setRevoking(key);
                        }}
                        aria-label={`Revoke key ${key.prefix}`}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        danger
        onCancel={() => {
          setRevoking(null);
        }}
        onConfirm={() => {
          const target = revoking;
          setRevoking(null);
          if (target)
            void act(async () => {
              await consoleApi.revokeKey(target.id);
              await load();
            });
        }}
      >
        <p>
          Callers using <code>idv_{revoking?.prefix}_…</code> ({revoking?.description}) will be refused once
          enforce mode is on. This cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={modeTarget !== null}
        title={modeTarget === 'enforce' ? 'Switch to enforce mode?' : 'Switch back to observe mode?'}
        confirmLabel={modeTarget === 'enforce' ? 'Enforce API keys' : 'Switch to observe'}
        danger={modeTarget === 'observe'}
        onCancel={() => {
          setModeTarget(null);
        }}
        onConfirm={() => {
          const target = modeTarget;
          setModeTarget(null);
          if (target)
            void act(async () => {
              await consoleApi.setAuthMode(target);
              await refresh();
            });
        }}
      >
        {modeTarget === 'enforce' ? (
          <p>
            Every API request without a valid key will get 401 Unauthorized. Make sure every integration sends
            its key.
          </p>
        ) : (
          <p>
            Requests without a valid key will be processed again (only logged). Do this only while diagnosing
            integrations.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
