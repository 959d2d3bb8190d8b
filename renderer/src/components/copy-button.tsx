import { useState } from 'react';

/** Copy a text to the clipboard and say so. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('done');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <button type="button" onClick={() => void copy()} aria-label={label}>
      {copied === 'done' ? 'Copied' : copied === 'failed' ? 'Copy failed: select and copy' : 'Copy'}
    </button>
  );
}
