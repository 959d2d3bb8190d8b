import { useState, type SyntheticEvent } from 'react';
import type {
  ConsoleSettingsResponse,
  DocumentProfileView,
  ReferenceMarkView,
} from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { Notice } from './notice';

type Documents = ConsoleSettingsResponse['documents'];
type Message = { tone: 'success' | 'error'; text: string } | null;

/** Edit one profile's description and minimum feature scores. */
function ProfileEditor({
  profile,
  onSaved,
}: {
  profile: DocumentProfileView;
  onSaved: (p: DocumentProfileView) => void;
}) {
  const [draft, setDraft] = useState(profile);
  const [message, setMessage] = useState<Message>(null);
  const save = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    try {
      const saved = await consoleApi.saveProfile(draft);
      onSaved(saved);
      setMessage({ tone: 'success', text: `Profile ${saved.name} saved.` });
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    }
  };
  return (
    <form onSubmit={(e) => void save(e)} aria-label={`Profile ${profile.name}`}>
      <label className="field compact">
        <span>Description</span>
        <input
          value={draft.description}
          onChange={(e) => {
            setDraft({ ...draft, description: e.target.value });
          }}
        />
      </label>
      <p className="muted small">The card passes when any one of these features reaches its minimum score.</p>
      {draft.features.map((f, index) => (
        <label key={f.feature} className="field compact">
          <span>Minimum score: {f.feature}</span>
          <input
            type="number"
            min={0}
            max={1}
            step={0.05}
            value={f.min_score}
            onChange={(e) => {
              const features = draft.features.map((x, i) =>
                i === index ? { ...x, min_score: Number(e.target.value) } : x,
              );
              setDraft({ ...draft, features });
            }}
          />
        </label>
      ))}
      <button type="submit" className="primary">
        Save profile {profile.name}
      </button>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
    </form>
  );
}

/** Register a printed issuer mark from an image, list and delete marks. */
function ReferenceMarks({ initial }: { initial: ReferenceMarkView[] }) {
  const [marks, setMarks] = useState(initial);
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const upload = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    if (!file) return;
    const form = new FormData();
    form.append('name', name);
    form.append('image', file);
    try {
      const mark = await consoleApi.addReferenceMark(form);
      setMarks([...marks, mark]);
      setMessage({
        tone: 'success',
        text: `Reference mark ${mark.name} registered (${mark.keypoints} keypoints).`,
      });
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    }
  };
  const remove = async (mark: ReferenceMarkView): Promise<void> => {
    try {
      await consoleApi.deleteReferenceMark(mark.id);
      setMarks(marks.filter((m) => m.id !== mark.id));
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    }
  };
  return (
    <div>
      {marks.length === 0 ? (
        <p className="muted">No reference mark registered.</p>
      ) : (
        <ul className="marks" aria-label="Reference marks">
          {marks.map((m) => (
            <li key={m.id}>
              <img src={consoleApi.referenceMarkPreviewUrl(m.id)} alt={`Reference mark ${m.name}`} />
              <span>
                {m.name}
                <br />
                <span className="muted small">{m.keypoints} keypoints</span>
              </span>
              <button
                type="button"
                className="small"
                onClick={() => void remove(m)}
                aria-label={`Delete reference mark ${m.name}`}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="row wrap" onSubmit={(e) => void upload(e)} aria-label="New reference mark">
        <label className="field compact">
          <span>Mark name</span>
          <input
            value={name}
            onChange={(e) => {
              setName(e.target.value);
            }}
            required
          />
        </label>
        <label className="field compact">
          <span>Mark image</span>
          <input
            type="file"
            accept="image/*"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
            }}
            required
          />
        </label>
        <button type="submit">Register mark</button>
      </form>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
    </div>
  );
}

/** Document profiles and reference marks of the ID-card check. */
export function DocumentSection({ documents }: { documents: Documents }) {
  const [profiles, setProfiles] = useState(documents.profiles);
  const [selected, setSelected] = useState(documents.profiles[0]?.name ?? '');
  const profile = profiles.find((p) => p.name === selected);
  return (
    <div>
      <h3>Profiles</h3>
      {profiles.length === 0 ? (
        <p className="muted">No document profile configured.</p>
      ) : (
        <>
          <label className="field compact">
            <span>Profile</span>
            <select
              value={selected}
              onChange={(e) => {
                setSelected(e.target.value);
              }}
            >
              {profiles.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                  {p.built_in ? ' (built in)' : ''}
                </option>
              ))}
            </select>
          </label>
          {profile && (
            <ProfileEditor
              key={profile.name}
              profile={profile}
              onSaved={(saved) => {
                setProfiles(profiles.map((p) => (p.name === saved.name ? saved : p)));
              }}
            />
          )}
        </>
      )}
      <h3>Reference marks</h3>
      <ReferenceMarks initial={documents.referenceMarks} />
    </div>
  );
}
