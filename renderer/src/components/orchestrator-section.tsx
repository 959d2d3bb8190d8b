import { useState, type SyntheticEvent } from 'react';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { Notice } from './notice';

type Config = Record<string, unknown>;

const ENUMS: Record<string, string[]> = { 'gating.on_unavailable': ['REVIEW', 'REJECTED'] };
const SECTION_TITLES: Record<string, string> = {
  weights: 'Weights',
  decision: 'Decision band',
  stages: 'Stages: timeouts, retries, score gates',
  retry: 'Retry backoff',
  gating: 'Gates',
};

function labelOf(path: string): string {
  const words = path.split('.').slice(1).join(' ').replace(/_ms\b/g, ' (ms)').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function setAt(config: Config, path: string[], value: unknown): Config {
  const [head, ...rest] = path;
  if (head === undefined) return config;
  const inner = config[head];
  return { ...config, [head]: rest.length === 0 ? value : setAt((inner ?? {}) as Config, rest, value) };
}

/** One leaf of the configuration as a labelled control. */
function Leaf({
  path,
  value,
  onChange,
}: {
  path: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const label = labelOf(path);
  const options = ENUMS[path];
  if (options) {
    return (
      <label className="field compact">
        <span>{label}</span>
        <select
          value={String(value)}
          onChange={(e) => {
            onChange(e.target.value);
          }}
        >
          {options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      </label>
    );
  }
  if (typeof value === 'boolean') {
    return (
      <label className="check">
        <input
          type="checkbox"
          checked={value}
          onChange={(e) => {
            onChange(e.target.checked);
          }}
        />{' '}
        {label}
      </label>
    );
  }
  if (typeof value === 'number') {
    return (
      <label className="field compact">
        <span>{label}</span>
        <input
          type="number"
          step="any"
          value={value}
          onChange={(e) => {
            onChange(e.target.value === '' ? 0 : Number(e.target.value));
          }}
        />
      </label>
    );
  }
  return (
    <label className="field compact">
      <span>{label}</span>
      <input
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => {
          onChange(e.target.value === '' ? null : e.target.value);
        }}
      />
    </label>
  );
}

function leaves(value: unknown, path: string): [string, unknown][] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  }
  return [[path, value]];
}

/** Orchestrator weights, timeouts, retries and gates (validated by the orchestrator on save). */
export function OrchestratorSection({ initial }: { initial: Config }) {
  const [config, setConfig] = useState<Config>(initial);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    try {
      setConfig((await consoleApi.setOrchestrator(config)).config);
      setMessage({ tone: 'success', text: 'Orchestrator settings saved; they apply to the next request.' });
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Orchestrator settings">
      <div className="config-groups">
        {Object.entries(config).map(([section, value]) => (
          <fieldset key={section}>
            <legend>{SECTION_TITLES[section] ?? labelOf(`x.${section}`)}</legend>
            {leaves(value, section).map(([path, leaf]) => (
              <Leaf
                key={path}
                path={path.includes('.') ? path : `x.${path}`}
                value={leaf}
                onChange={(v) => {
                  setConfig(setAt(config, path.split('.'), v));
                }}
              />
            ))}
          </fieldset>
        ))}
      </div>
      <button type="submit" className="primary">
        Save orchestrator settings
      </button>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
    </form>
  );
}
