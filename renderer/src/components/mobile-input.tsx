import { useId, useState } from 'react';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { CountrySelect } from './country-select';

/** A mobile number with its validity: `e164` is set only when the number is valid for the country. */
export interface MobileValue {
  country: CountryCode;
  national: string;
  e164: string | null;
}

/** Validate a typed number for a country; numbers typed with + use their own country code. */
export function validateMobile(country: CountryCode, national: string): MobileValue {
  const parsed = national.trim() ? parsePhoneNumberFromString(national, country) : undefined;
  return { country, national, e164: parsed?.isValid() ? parsed.number : null };
}

interface Props {
  value: MobileValue;
  onChange: (value: MobileValue) => void;
}

/** Country selector and number field with live validation (the server re-validates). */
export function MobileInput({ value, onChange }: Props) {
  const [touched, setTouched] = useState(false);
  const hintId = useId();
  const showError = touched && value.national.trim() !== '' && value.e164 === null;
  return (
    <fieldset className="mobile-input">
      <legend>Mobile number</legend>
      <CountrySelect
        label="Country"
        value={value.country}
        onChange={(country) => {
          onChange(validateMobile(country, value.national));
        }}
      />
      <label className="field grow">
        <span>Number</span>
        <input
          type="tel"
          inputMode="tel"
          value={value.national}
          aria-invalid={showError}
          aria-describedby={hintId}
          placeholder="e.g. 7911 123456"
          onBlur={() => {
            setTouched(true);
          }}
          onChange={(e) => {
            onChange(validateMobile(value.country, e.target.value));
          }}
        />
      </label>
      <p
        id={hintId}
        className={showError ? 'error hint' : value.e164 ? 'ok hint' : 'muted hint'}
        aria-live="polite"
      >
        {value.e164
          ? `Valid mobile number: ${value.e164}`
          : showError
            ? 'Not a valid mobile number for this country.'
            : 'Enter the customer’s mobile number.'}
      </p>
    </fieldset>
  );
}
