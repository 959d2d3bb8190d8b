import { useState, type SyntheticEvent } from 'react';
import type { ConsolePreferences } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { useSession } from '../hooks/session-context';
import { CountrySelect, countryOptions, countryOrLocale } from './country-select';
import { Notice } from './notice';

/** Console-wide preferences: the country preselected for customers' mobile numbers. */
export function ConsolePreferencesSection({
  preferences,
  onSaved,
}: {
  preferences: ConsolePreferences;
  onSaved: (saved: ConsolePreferences) => void;
}) {
  const { refresh } = useSession();
  const [country, setCountry] = useState(countryOrLocale(preferences.defaultCountry));
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    try {
      const saved = await consoleApi.setConsolePreferences({ defaultCountry: country });
      onSaved(saved);
      await refresh();
      const label = countryOptions().find((o) => o.code === saved.defaultCountry)?.label ?? country;
      setMessage({ tone: 'success', text: `Mobile numbers now start with ${label}.` });
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Console settings">
      <CountrySelect label="Default country for mobile numbers" value={country} onChange={setCountry} />
      {preferences.defaultCountry === null && (
        <p className="muted small">Not chosen yet: the console uses this browser’s region.</p>
      )}
      <button type="submit" className="primary">
        Save default country
      </button>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
    </form>
  );
}
