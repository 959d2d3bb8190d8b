import { useEffect } from 'react';
import type { ConsoleRole } from '../../../core/http/routes/console/api-types';
import { useRoute, type ScreenPath } from '../hooks/use-route';
import { useSession } from '../hooks/session-context';
import { AuditScreen } from '../screens/audit-screen';
import { EnrollScreen } from '../screens/enroll-screen';
import { KeysScreen } from '../screens/keys-screen';
import { SettingsScreen } from '../screens/settings-screen';
import { UsersScreen } from '../screens/users-screen';
import { VerifyScreen } from '../screens/verify-screen';

interface ScreenEntry {
  path: ScreenPath;
  label: string;
  roles: ConsoleRole[];
  render: () => React.ReactNode;
}

const SCREENS: ScreenEntry[] = [
  { path: '/enroll', label: 'Enroll', roles: ['operator', 'admin'], render: () => <EnrollScreen /> },
  { path: '/verify', label: 'Verify', roles: ['operator', 'admin'], render: () => <VerifyScreen /> },
  { path: '/audit', label: 'Results & audit', roles: ['auditor', 'admin'], render: () => <AuditScreen /> },
  { path: '/keys', label: 'API keys', roles: ['admin'], render: () => <KeysScreen /> },
  { path: '/settings', label: 'Settings', roles: ['admin'], render: () => <SettingsScreen /> },
  { path: '/users', label: 'Users', roles: ['admin'], render: () => <UsersScreen /> },
];

/** The signed-in frame: navigation for the role, the observe-mode banner, and the current screen. */
export function Shell({ onSignOut }: { onSignOut: () => Promise<void> }) {
  const { me } = useSession();
  const [path, navigate] = useRoute();
  const allowed = SCREENS.filter((s) => s.roles.includes(me.user.role));
  const current = allowed.find((s) => s.path === path) ?? allowed[0];

  useEffect(() => {
    if (current && current.path !== path) window.history.replaceState(null, '', current.path);
    document.title = current ? `${current.label} · IDV Console` : 'IDV Console';
  }, [current, path]);

  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">IDV Console</span>
        <nav aria-label="Screens">
          {allowed.map((screen) => (
            <a
              key={screen.path}
              href={screen.path}
              aria-current={screen === current ? 'page' : undefined}
              onClick={(event) => {
                event.preventDefault();
                navigate(screen.path);
              }}
            >
              {screen.label}
            </a>
          ))}
        </nav>
        <span className="user">
          {me.user.username} <span className="role">{me.user.role}</span>
        </span>
        <button type="button" className="link" onClick={() => void onSignOut()}>
          Sign out
        </button>
      </header>
      {me.authMode === 'observe' && (
        <div className="banner warning" role="status" aria-label="Auth mode">
          Observe mode: API requests without a valid key are logged but not refused. Switch to enforce in API
          keys before going live.
        </div>
      )}
      <main className="content">{current?.render()}</main>
    </div>
  );
}
