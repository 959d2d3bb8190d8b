import { useCallback, useEffect, useState, type SyntheticEvent } from 'react';
import type { ConsoleRole, ConsoleUserView } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { Notice, Spinner } from '../components/notice';
import { PasswordReset } from '../components/password-reset';
import { useSession } from '../hooks/session-context';
import { formatDate } from '../format';

const ROLES: ConsoleRole[] = ['operator', 'auditor', 'admin'];

/** Console accounts: create, change role, disable (admins only). */
export function UsersScreen() {
  const { me } = useSession();
  const [users, setUsers] = useState<ConsoleUserView[] | null>(null);
  const [form, setForm] = useState({ username: '', password: '', role: 'operator' as ConsoleRole });
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const load = useCallback(async () => {
    try {
      setUsers((await consoleApi.users()).users);
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    }
  }, []);
  useEffect(() => void load(), [load]);

  const act = async (work: () => Promise<unknown>, success: string): Promise<void> => {
    try {
      await work();
      setMessage({ tone: 'success', text: success });
      await load();
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    }
  };
  const create = (event: SyntheticEvent): void => {
    event.preventDefault();
    void act(async () => {
      await consoleApi.createUser(form.username, form.password, form.role);
      setForm({ username: '', password: '', role: form.role });
    }, `Account ${form.username} created.`);
  };

  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Console users</h1>
      <form className="card row wrap" onSubmit={create} aria-label="New console user">
        <label className="field">
          <span>New username</span>
          <input
            value={form.username}
            onChange={(e) => {
              setForm({ ...form, username: e.target.value });
            }}
            required
          />
        </label>
        <label className="field">
          <span>Initial password</span>
          <input
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => {
              setForm({ ...form, password: e.target.value });
            }}
            minLength={10}
            required
          />
        </label>
        <label className="field">
          <span>Role</span>
          <select
            value={form.role}
            onChange={(e) => {
              setForm({ ...form, role: e.target.value as ConsoleRole });
            }}
          >
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary">
          Create account
        </button>
      </form>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      <div className="card">
        {users === null ? (
          <Spinner label="Loading accounts…" />
        ) : (
          <table aria-label="Console users">
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Role</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <td>{u.username}</td>
                  <td>
                    <select
                      aria-label={`Role of ${u.username}`}
                      value={u.role}
                      disabled={u.id === me.user.id}
                      onChange={(e) =>
                        void act(
                          () => consoleApi.updateUser(u.id, { role: e.target.value as ConsoleRole }),
                          `${u.username} is now ${e.target.value}.`,
                        )
                      }
                    >
                      {ROLES.map((r) => (
                        <option key={r}>{r}</option>
                      ))}
                    </select>
                  </td>
                  <td>{formatDate(u.createdAt)}</td>
                  <td>
                    {u.disabled ? (
                      <span className="badge bad">disabled</span>
                    ) : (
                      <span className="badge ok">active</span>
                    )}
                  </td>
                  <td>
                    {u.id !== me.user.id && (
                      <button
                        type="button"
                        className="small"
                        onClick={() =>
                          void act(
                            () => consoleApi.updateUser(u.id, { disabled: !u.disabled }),
                            `${u.username} ${u.disabled ? 'enabled' : 'disabled'}.`,
                          )
                        }
                      >
                        {u.disabled ? 'Enable' : 'Disable'}
                      </button>
                    )}{' '}
                    <PasswordReset
                      user={u}
                      onSave={(password) =>
                        void act(
                          () => consoleApi.updateUser(u.id, { password }),
                          `Password of ${u.username} changed.`,
                        )
                      }
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
