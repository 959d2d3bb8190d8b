import { useState } from 'react';
import type { AuthMode } from '../../../core/http/routes/console/api-types';
import { consoleApi } from '../api/console-api';
import { useSession } from '../hooks/session-context';
import { useAction } from '../hooks/use-action';
import { ConfirmDialog } from './confirm-dialog';
import { Notice } from './notice';

/** The observe/enforce switch, confirmed in a dialog; the whole console re-reads the mode afterwards. */
export function AuthModeCard() {
  const { me, refresh } = useSession();
  const [modeTarget, setModeTarget] = useState<AuthMode | null>(null);
  const { error, act } = useAction();
  return (
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
      {error && <Notice tone="error">{error}</Notice>}
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
    </div>
  );
}
