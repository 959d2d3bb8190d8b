import type { ConsoleSettingsResponse } from '../../../core/http/routes/console/api-types';

/** Document profiles and their reference marks (read-only until the document engine exposes editing). */
export function DocumentSection({ documents }: { documents: ConsoleSettingsResponse['documents'] }) {
  return (
    <div>
      <h3>Profiles</h3>
      {documents.profiles.length === 0 ? (
        <p className="muted">No document profile configured.</p>
      ) : (
        <pre className="json">{JSON.stringify(documents.profiles, null, 2)}</pre>
      )}
      <h3>Reference marks</h3>
      {documents.referenceMarks.length === 0 ? (
        <p className="muted">No reference mark uploaded.</p>
      ) : (
        <pre className="json">{JSON.stringify(documents.referenceMarks, null, 2)}</pre>
      )}
    </div>
  );
}
