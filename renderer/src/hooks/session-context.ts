import { createContext, useContext } from 'react';
import type { CountryCode } from 'libphonenumber-js/max';
import type { EngineAvailability, MeResponse } from '../../../core/http/routes/console/api-types';

/** The signed-in user, the auth mode and which engines exist; shared by every screen. */
export interface Session {
  me: MeResponse;
  engines: EngineAvailability;
  /** Country preselected for mobile numbers: the admin's setting, else the browser locale's region. */
  defaultCountry: CountryCode;
  /** Re-read /me and /engines (after switching auth mode, for instance). */
  refresh: () => Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

/** The current session; screens only render inside a signed-in shell. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in console');
  return session;
}
