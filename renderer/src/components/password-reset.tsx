import { useState } from 'react';
import type { ConsoleUserView } from '../../../core/http/routes/console/api-types';
import { ConfirmDialog } from './confirm-dialog';

/** "Set password" for another account: a dialog with the new password; saving ends that account's sessions. */
export function PasswordReset({
  user,
  onSave,
}: {
  user: ConsoleUserView;
  onSave: (password: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  return (
    <>
      <button
        type="button"
        className="small"
        aria-label={`Set password of ${user.username}`}
        onClick={() => {
          setPassword('');
          setOpen(true);
        }}
      >
        Set password
      </button>
      <ConfirmDialog
        open={open}
        title={`New password for ${user.username}`}
        confirmLabel="Save password"
        onCancel={() => {
          setOpen(false);
        }}
        onConfirm={() => {
          setOpen(false);
          onSave(password);
        }}
      >
        <label className="field">
          <span>New password</span>
          <input
            type="password"
            autoComplete="new-password"
            minLength={10}
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
            }}
          />
        </label>
        <p className="muted small">At least 10 characters. The account is signed out everywhere.</p>
      </ConfirmDialog>
    </>
  );
}
