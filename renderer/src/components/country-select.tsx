import { useMemo } from 'react';
import {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  type CountryCode,
} from 'libphonenumber-js/max';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Every country with a calling code, by English name: "United Kingdom (+44)". */
export function countryOptions(): { code: CountryCode; label: string }[] {
  return getCountries()
    .map((code) => ({ code, label: `${regionNames.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** The stored default country when it is one, else the region of the browser's locale (en → US). */
export function countryOrLocale(stored: string | null | undefined): CountryCode {
  if (stored && isSupportedCountry(stored)) return stored;
  const region = new Intl.Locale(navigator.language).maximize().region;
  return region && isSupportedCountry(region) ? region : 'US';
}

/** A country picker for mobile numbers. */
export function CountrySelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: CountryCode;
  onChange: (code: CountryCode) => void;
}) {
  const options = useMemo(countryOptions, []);
  return (
    <label className="field">
      <span>{label}</span>
      <select
        value={value}
        onChange={(e) => {
          onChange(e.target.value as CountryCode);
        }}
      >
        {options.map((o) => (
          <option key={o.code} value={o.code}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
