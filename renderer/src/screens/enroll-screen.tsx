import { useState, type SyntheticEvent } from 'react';
import type { EnrollResponse } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { FingerprintField } from '../components/fingerprint-field';
import { MobileInput, validateMobile, type MobileValue } from '../components/mobile-input';
import { NotAvailable, Notice, Spinner } from '../components/notice';
import { useSession } from '../hooks/session-context';

/** The de-duplication warning of an enrollment: the same finger is enrolled under another number. */
export function duplicateWarning(details: Record<string, unknown>): string | null {
  const other = details.duplicate_of;
  if (typeof other !== 'string') return null;
  const score =
    typeof details.duplicate_score === 'number' ? ` (match score ${details.duplicate_score.toFixed(3)})` : '';
  return `This finger is already enrolled under ${other}${score}. Check the customer's identity before going on.`;
}

/** Enroll a fingerprint for a mobile number. */
export function EnrollScreen() {
  const { engines, defaultCountry } = useSession();
  const [mobile, setMobile] = useState<MobileValue>(() => validateMobile(defaultCountry, ''));
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<EnrollResponse | null>(null);
  const [error, setError] = useState('');

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    if (!mobile.e164 || !file) return;
    setBusy(true);
    setError('');
    setResult(null);
    const form = new FormData();
    form.append('mobile_number', mobile.e164);
    form.append('file', file);
    try {
      setResult(await consoleApi.enroll(form));
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  const warning = result ? duplicateWarning(result.details) : null;
  return (
    <section aria-labelledby="enroll-title">
      <h1 id="enroll-title">Enroll a fingerprint</h1>
      <p className="muted">
        Enrollment must precede verification. Re-enrolling a number replaces its template.
      </p>
      {!engines.fingerprint ? (
        <NotAvailable engine="Fingerprint enrollment" />
      ) : (
        <form className="card two-columns" onSubmit={(e) => void submit(e)}>
          <div>
            <MobileInput value={mobile} onChange={setMobile} />
            <button type="submit" className="primary" disabled={busy || !mobile.e164 || !file}>
              {busy ? 'Enrolling…' : 'Enroll fingerprint'}
            </button>
            <div aria-live="polite" className="result-area">
              {busy && <Spinner label="Extracting and enrolling the print…" />}
              {error && (
                <Notice tone="error" title="Enrollment refused">
                  {error}
                </Notice>
              )}
              {result && (
                <Notice tone="success" title="Enrolled">
                  {result.message} Number {result.mobileMasked}.
                  {typeof result.details.quality_score === 'number' &&
                    ` Quality ${result.details.quality_score}.`}
                  {result.details.replaced === true && ' The previous enrollment was replaced.'}
                </Notice>
              )}
              {warning && (
                <Notice tone="warning" title="Possible duplicate">
                  {warning}
                </Notice>
              )}
            </div>
          </div>
          <FingerprintField label="Fingerprint image" file={file} onFile={setFile} />
        </form>
      )}
    </section>
  );
}
