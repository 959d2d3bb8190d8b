import { useState, type SyntheticEvent } from 'react';
import { AnnotatedImage, BoxOverlay, overlayScale } from '../components/annotated-image';
import { FingerprintField } from '../components/fingerprint-field';
import { MobileInput, validateMobile, type MobileValue } from '../components/mobile-input';
import { Notice, Spinner } from '../components/notice';
import { PhotoSource } from '../components/photo-source';
import { findBox } from '../components/result-boxes';
import { StepCard, STEP_PHRASES, plainReason, serverDetail } from '../components/step-card';
import { useImageFile } from '../hooks/use-image-file';
import { useSession } from '../hooks/session-context';
import { STEPS, useVerification } from '../hooks/use-verification';

/** Verify a customer: fingerprint against the enrolled print, selfie against the ID card, card security feature. */
export function VerifyScreen() {
  const { engines, defaultCountry } = useSession();
  const [mobile, setMobile] = useState<MobileValue>(() => validateMobile(defaultCountry, ''));
  const [fingerprint, setFingerprint] = useState<File | null>(null);
  const [selfie, setSelfie] = useState<File | null>(null);
  const [idCard, setIdCard] = useState<File | null>(null);
  const selfieImage = useImageFile(selfie);
  const cardImage = useImageFile(idCard);
  const { steps, verdict, failedStep, error, run, reset } = useVerification(engines);

  const ready = mobile.e164 !== null && fingerprint && selfie && idCard;
  const submit = (event: SyntheticEvent): void => {
    event.preventDefault();
    if (!mobile.e164 || !fingerprint || !selfie || !idCard) return;
    void run({ mobile: mobile.e164, fingerprint, selfie, idCard });
  };

  const face = steps.face_match.kind === 'done' ? steps.face_match.outcome : undefined;
  const card = steps.id_card_check.kind === 'done' ? steps.id_card_check.outcome : undefined;
  const selfieBox = findBox(face?.extra, /selfie/i);
  const cardFaceBox = findBox(face?.extra, /(id_?card|card|document|portrait)/i);
  const featureBox = findBox(card?.extra, /(region|box|bbox|location|feature)/i);
  const feature =
    typeof card?.extra?.feature_detected === 'string' ? card.extra.feature_detected : 'security feature';
  const failed = failedStep ? steps[failedStep] : undefined;
  const rejected = failed?.kind === 'done' ? failed.outcome : undefined;

  const selfiePreview = selfieImage && (
    <AnnotatedImage
      image={selfieImage}
      label={selfieBox ? 'Selfie with the detected face outlined' : 'Selfie'}
    >
      {selfieBox && (
        <BoxOverlay
          box={selfieBox}
          label="face"
          tone={face?.status === 'SUCCESS' ? 'ok' : 'bad'}
          scale={overlayScale(selfieImage)}
        />
      )}
    </AnnotatedImage>
  );
  const cardPreview = cardImage && (
    <AnnotatedImage image={cardImage} label={featureBox ? `ID card with the ${feature} outlined` : 'ID card'}>
      {cardFaceBox && (
        <BoxOverlay
          box={cardFaceBox}
          label="portrait"
          tone={face?.status === 'SUCCESS' ? 'ok' : 'bad'}
          scale={overlayScale(cardImage)}
        />
      )}
      {featureBox && (
        <BoxOverlay
          box={featureBox}
          label={feature}
          tone={card?.status === 'SUCCESS' ? 'ok' : 'bad'}
          scale={overlayScale(cardImage)}
        />
      )}
    </AnnotatedImage>
  );

  return (
    <section aria-labelledby="verify-title">
      <h1 id="verify-title">Verify a customer</h1>
      <form className="verify-layout" onSubmit={submit}>
        <div className="verify-inputs">
          <div className="card">
            <MobileInput value={mobile} onChange={setMobile} />
            <FingerprintField label="Fingerprint image" file={fingerprint} onFile={setFingerprint} />
          </div>
          <div className="card">
            <PhotoSource
              subject="Selfie"
              file={selfie}
              onFile={setSelfie}
              preview={selfiePreview}
              liveQuality={engines.faceQuality}
            />
          </div>
          <div className="card">
            <PhotoSource
              subject="ID card"
              file={idCard}
              onFile={setIdCard}
              preview={cardPreview}
              liveQuality={false}
            />
          </div>
        </div>
        <aside className="card steps-panel" aria-labelledby="checks-title">
          <div className="row spread">
            <h2 id="checks-title">Checks</h2>
            <div className="row">
              {verdict && verdict !== 'running' && (
                <button type="button" onClick={reset}>
                  Clear result
                </button>
              )}
              <button type="submit" className="primary" disabled={!ready || verdict === 'running'}>
                Run verification
              </button>
            </div>
          </div>
          <div aria-live="polite" className="verdict">
            {verdict === 'running' && <Spinner label="Verifying…" />}
            {verdict === 'SUCCESS' && (
              <Notice tone="success" title="Verified">
                All three checks passed.
              </Notice>
            )}
            {verdict === 'REJECTED' && rejected && (
              <Notice tone="error" title={`Rejected at ${STEP_PHRASES[rejected.step]}`}>
                {plainReason(rejected)}
                {serverDetail(rejected) && <span className="detail">{serverDetail(rejected)}</span>}
              </Notice>
            )}
            {verdict === 'INCOMPLETE' && (
              <Notice tone="warning" title="Not verified">
                {error || 'A check could not run; see the steps below.'}
              </Notice>
            )}
          </div>
          <ol className="steps" aria-label="Verification steps">
            {STEPS.map((step) => (
              <StepCard key={step} step={step} state={steps[step]} />
            ))}
          </ol>
        </aside>
      </form>
    </section>
  );
}
