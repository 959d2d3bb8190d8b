import { useCallback, useEffect, useId, useState, type SyntheticEvent } from 'react';
import type { ApiKeyView, CreatedKeyResponse } from '../../../core/http/routes/console/api-types';
import { ApiError, errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { AuthModeCard } from '../components/auth-mode-card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { Notice, Spinner } from '../components/notice';
import { formatDateTime } from '../format';
import { useAction } from '../hooks/use-action';

/** What the key's description must be (the server checks the same after trimming). */
function descriptionProblem(text: string): string | null {
  const length = text.trim().length;
  if (length === 0) return 'Describe what the key is for, e.g. the backend that will call the API.';
  if (length < 3) return 'The description needs at least 3 characters.';
  return null;
}

/** API keys: issue (shown once), list, revoke; and the observe/enforce switch. */
export function KeysScreen() {
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<CreatedKeyResponse | null>(null);
  const { error, setError, act } = useAction();
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const [fieldError, setFieldError] = useState('');
  const descriptionHint = useId();

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
    const problem = descriptionProblem(description);
    setFieldError(problem ?? '');
    if (problem) return;
    await act(async () => {
      try {
        setCreated(await consoleApi.createKey(description));
      } catch (caught) {
        if (caught instanceof ApiError && caught.field === 'description') {
          setFieldError(caught.message);
          return;
        }
        throw caught;
      }
      setDescription('');
      await load();
    });
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <AuthModeCard />

      <form className="card" onSubmit={(e) => void issue(e)} noValidate aria-label="Issue a key">
        <h2>Issue a key</h2>
        <label className="field">
          <span>Use-case description</span>
          <input
            value={description}
            onChange={(e) => {
              setDescription(e.target.value);
              if (fieldError && !descriptionProblem(e.target.value)) setFieldError('');
            }}
            placeholder="e.g. Branch onboarding backend, Leeds"
            maxLength={500}
            aria-invalid={fieldError !== ''}
            aria-describedby={descriptionHint}
          />
        </label>
        <p
          id={descriptionHint}
          className={fieldError ? 'error hint field-note' : 'muted hint field-note'}
          role={fieldError ? 'alert' : undefined}
        >
          {fieldError || 'Shown in the key list and, for its calls, as the caller in the audit log.'}
        </p>
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
                  <td>{formatDateTime(key.createdAt)}</td>
                  <td>{formatDateTime(key.lastUsedAt)}</td>
                  <td>
                    {key.revokedAt ? (
                      <span className="badge bad">revoked {formatDateTime(key.revokedAt)}</span>
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
