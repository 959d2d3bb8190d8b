import { useCallback, useEffect, useRef, useState } from 'react';
import type { EngineAvailability, MeResponse } from '../../core/http/routes/console/api-types';
import { ApiError, errorMessage, onUnauthorized } from './api/client';
import { consoleApi } from './api/console-api';
import { Shell } from './components/shell';
import { countryOrLocale } from './components/country-select';
import { SessionContext, type Session } from './hooks/session-context';
import { SignInScreen } from './screens/sign-in-screen';

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'signed-out'; hasAdmin: boolean }
  | { kind: 'signed-in'; me: MeResponse; engines: EngineAvailability };

/** Root: first-run setup or sign-in, then the console shell for the signed-in role. */
export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  // Only a session that ends while signed in sends the app back to sign-in: the probes of `load` answer 401 too.
  const signedIn = useRef(false);

  const load = useCallback(async () => {
    try {
      const [me, engines] = await Promise.all([consoleApi.me(), consoleApi.engines()]);
      signedIn.current = true;
      setState({ kind: 'signed-in', me, engines });
    } catch (error) {
      signedIn.current = false;
      if (error instanceof ApiError && error.status === 401) {
        try {
          const { hasAdmin } = await consoleApi.setupState();
          setState({ kind: 'signed-out', hasAdmin });
        } catch (inner) {
          setState({ kind: 'error', message: errorMessage(inner) });
        }
      } else {
        setState({ kind: 'error', message: errorMessage(error) });
      }
    }
  }, []);

  useEffect(() => {
    void load();
    return onUnauthorized(() => {
      if (!signedIn.current) return;
      signedIn.current = false;
      void load();
    });
  }, [load]);

  const signOut = useCallback(async () => {
    signedIn.current = false;
    await consoleApi.logout();
    await load();
  }, [load]);

  switch (state.kind) {
    case 'loading':
      return (
        <main className="center-page" aria-busy="true">
          <p className="muted">Loading the console…</p>
        </main>
      );
    case 'error':
      return (
        <main className="center-page">
          <div className="card narrow" role="alert">
            <h1>The console cannot reach its server</h1>
            <p>{state.message}</p>
            <button type="button" onClick={() => void load()}>
              Try again
            </button>
          </div>
        </main>
      );
    case 'signed-out':
      return <SignInScreen firstRun={!state.hasAdmin} onSignedIn={load} />;
    case 'signed-in': {
      const session: Session = {
        me: state.me,
        engines: state.engines,
        defaultCountry: countryOrLocale(state.me.defaultCountry),
        refresh: load,
      };
      return (
        <SessionContext.Provider value={session}>
          <Shell onSignOut={signOut} />
        </SessionContext.Provider>
      );
    }
  }
}
