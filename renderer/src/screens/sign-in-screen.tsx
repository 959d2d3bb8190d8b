import { useState, type SyntheticEvent } from 'react';
import type { CountryCode } from 'libphonenumber-js/max';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { CountrySelect, countryOrLocale } from '../components/country-select';

interface Props {
  /** No admin exists yet: this form creates the first one. */
  firstRun: boolean;
  onSignedIn: () => Promise<void>;
}

/** First-run admin creation, or sign-in. */
export function SignInScreen({ firstRun, onSignedIn }: Props) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [country, setCountry] = useState<CountryCode>(() => countryOrLocale(null));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    setError('');
    if (firstRun && password !== confirm) {
      setError('The two passwords differ.');
      return;
    }
    setBusy(true);
    try {
      if (firstRun) await consoleApi.setup(username, password, country);
      else await consoleApi.login(username, password);
      await onSignedIn();
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <form className="card narrow" onSubmit={(e) => void submit(e)} aria-labelledby="sign-in-title">
        <p className="brand">IDV Console</p>
        <h1 id="sign-in-title">{firstRun ? 'Create the administrator' : 'Sign in'}</h1>
        {firstRun && (
          <p className="muted">
            First run: this account manages API keys, settings and other console users. Passwords need at
            least 10 characters.
          </p>
        )}
        <label className="field">
          <span>Username</span>
          <input
            value={username}
            onChange={(e) => {
              setUsername(e.target.value);
            }}
            autoComplete="username"
            required
            autoFocus
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
            }}
            autoComplete={firstRun ? 'new-password' : 'current-password'}
            required
          />
        </label>
        {firstRun && (
          <label className="field">
            <span>Confirm password</span>
            <input
              type="password"
              value={confirm}
              onChange={(e) => {
                setConfirm(e.target.value);
              }}
              autoComplete="new-password"
              required
            />
          </label>
        )}
        {firstRun && (
          <>
            <CountrySelect label="Country of your customers" value={country} onChange={setCountry} />
            <p className="muted small field-note">
              Preselected for mobile numbers on the enroll and verify screens; change it later in Settings.
            </p>
          </>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Please wait…' : firstRun ? 'Create administrator' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
