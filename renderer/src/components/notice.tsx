import type { ReactNode } from 'react';

/** A short status box: info, warning, error or success; errors are announced to screen readers. */
export function Notice({
  tone,
  title,
  children,
}: {
  tone: 'info' | 'warning' | 'error' | 'success';
  title?: string;
  children?: ReactNode;
}) {
  return (
    <div className={`notice ${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title && <strong>{title}</strong>}
      {children && <div>{children}</div>}
    </div>
  );
}

/** The state of an engine that has not landed on this server: never a fake result. */
export function NotAvailable({ engine }: { engine: string }) {
  return (
    <Notice tone="info" title={`${engine} is not available yet`}>
      This server was built without the {engine.toLowerCase()} engine, so this action cannot run. Nothing is
      simulated: once the engine is installed, this screen works without changes.
    </Notice>
  );
}

/** Inline progress indicator for long work. */
export function Spinner({ label }: { label: string }) {
  return (
    <span className="spinner" role="progressbar" aria-label={label}>
      <span aria-hidden="true" className="spinner-dot" /> {label}
    </span>
  );
}
