import { useCallback, useEffect, useState, type SyntheticEvent } from 'react';
import type { ApiKeyView, CreatedKeyResponse } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { AuthModeCard } from '../components/auth-mode-card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { Notice, Spinner } from '../components/notice';
import { useAction } from '../hooks/use-action';

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

/** API keys: issue (shown once), list, revoke; and the observe/enforce switch. */
export function KeysScreen() {
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<CreatedKeyResponse | null>(null);
  const { error, setError, act } = useAction();
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);

  const load = useCallback(async () => {
    try {
      setKeys((await consoleApi.keys()).keys);
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }, [setError]);
  useEffect(() => void load(), [load]);

  const issue = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    await act(async () => {
      setCreated(await consoleApi.createKey(description));
      setDescription('');
      await load();
    });
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <AuthModeCard />

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
        {created && !keys?.some((k) => k.id === created.id && k.revokedAt) && (
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
    </section>
  );
}
