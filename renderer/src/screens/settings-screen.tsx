import { useEffect, useState } from 'react';
import type { ConsoleSettingsResponse } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { ConsolePreferencesSection } from '../components/console-preferences-section';
import { DocumentSection } from '../components/document-section';
import { FingerprintPolicySection } from '../components/fingerprint-policy-section';
import { NotAvailable, Notice, Spinner } from '../components/notice';
import { OrchestratorSection } from '../components/orchestrator-section';
import { ServerBindSection } from '../components/server-bind-section';
import { ThresholdSection } from '../components/threshold-section';

/**
 * Admin settings: matcher thresholds, the fingerprint reader and enrollment policy, document profiles, orchestrator,
 * server address.
 */
export function SettingsScreen() {
  const [settings, setSettings] = useState<ConsoleSettingsResponse | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    consoleApi.settings().then(setSettings, (caught: unknown) => {
      setError(errorMessage(caught));
    });
  }, []);
  if (error) return <Notice tone="error">{error}</Notice>;
  if (!settings) return <Spinner label="Loading settings…" />;
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <div className="settings-grid">
        <div className="card">
          <h2>Match thresholds</h2>
          {settings.thresholds.map((t) => (
            <ThresholdSection
              key={t.engine}
              setting={t}
              onSaved={(saved) => {
                setSettings({
                  ...settings,
                  thresholds: settings.thresholds.map((x) => (x.engine === saved.engine ? saved : x)),
                });
              }}
            />
          ))}
        </div>
        <div className="card">
          <h2>Fingerprint reader and enrollment</h2>
          {settings.fingerprint.available ? (
            <FingerprintPolicySection
              policy={settings.fingerprint}
              onSaved={(fingerprint, threshold) => {
                setSettings({
                  ...settings,
                  fingerprint,
                  thresholds: settings.thresholds.map((x) => (x.engine === threshold.engine ? threshold : x)),
                });
              }}
            />
          ) : (
            <NotAvailable engine="Fingerprint matching" />
          )}
        </div>
        <div className="card">
          <h2>Console</h2>
          <ConsolePreferencesSection
            preferences={settings.console}
            onSaved={(preferences) => {
              setSettings({ ...settings, console: preferences });
            }}
          />
        </div>
        <div className="card">
          <h2>Server address</h2>
          <ServerBindSection
            server={settings.server}
            onSaved={(server) => {
              setSettings({ ...settings, server });
            }}
          />
        </div>
        <div className="card">
          <h2>ID documents</h2>
          {settings.documents.available ? (
            <DocumentSection documents={settings.documents} />
          ) : (
            <NotAvailable engine="ID-document checking" />
          )}
        </div>
        <div className="card">
          <h2>Orchestrator</h2>
          {settings.orchestrator.available && settings.orchestrator.config ? (
            <OrchestratorSection initial={settings.orchestrator.config} />
          ) : (
            <NotAvailable engine="The orchestrator" />
          )}
        </div>
      </div>
    </section>
  );
}
