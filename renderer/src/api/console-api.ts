import type {
  ApiKeyView,
  AuditPageResponse,
  AuditRowView,
  AuthMode,
  ChainCheckResponse,
  ConsolePreferences,
  ConsoleRole,
  ConsoleSettingsResponse,
  ConsoleUserView,
  CreatedKeyResponse,
  DailyStatView,
  DocumentProfileView,
  EngineAvailability,
  EnrollResponse,
  FaceQualityResponse,
  FingerprintPolicySetting,
  FingerprintPreviewResponse,
  MeResponse,
  ReferenceMarkView,
  ServerBindSetting,
  SetupStateResponse,
  ThresholdSetting,
  VerifyStreamEvent,
} from '../../../core/http/routes/console/api-types';
import { postForm, postFormStream, request } from './client';

/** Filters of the audit table, as the query string carries them. */
export type AuditFilters = Partial<
  Record<'from' | 'to' | 'route' | 'httpStatus' | 'resultStatus' | 'failedStep' | 'keyId' | 'mobile', string>
>;

function query(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Typed calls of the console API. */
export const consoleApi = {
  setupState: () => request<SetupStateResponse>('GET', '/setup-state'),
  setup: (username: string, password: string, country: string) =>
    request<{ user: ConsoleUserView }>('POST', '/setup', { username, password, country }),
  login: (username: string, password: string) =>
    request<{ user: ConsoleUserView }>('POST', '/login', { username, password }),
  logout: () => request<undefined>('POST', '/logout'),
  me: () => request<MeResponse>('GET', '/me'),
  engines: () => request<EngineAvailability>('GET', '/engines'),

  users: () => request<{ users: ConsoleUserView[] }>('GET', '/users'),
  createUser: (username: string, password: string, role: ConsoleRole) =>
    request<{ user: ConsoleUserView }>('POST', '/users', { username, password, role }),
  updateUser: (id: string, change: { role?: ConsoleRole; disabled?: boolean; password?: string }) =>
    request<{ user: ConsoleUserView }>('PATCH', `/users/${encodeURIComponent(id)}`, change),

  keys: () => request<{ keys: ApiKeyView[] }>('GET', '/keys'),
  createKey: (description: string) => request<CreatedKeyResponse>('POST', '/keys', { description }),
  revokeKey: (id: string) => request<ApiKeyView>('POST', `/keys/${encodeURIComponent(id)}/revoke`),
  setAuthMode: (mode: AuthMode) => request<{ mode: AuthMode }>('PUT', '/auth-mode', { mode }),

  auditPage: (filters: AuditFilters, before?: number) =>
    request<AuditPageResponse>(
      'GET',
      `/audit${query(filters, before === undefined ? { limit: '50' } : { limit: '50', before: String(before) })}`,
    ),
  auditRow: (seq: number) => request<AuditRowView>('GET', `/audit/${seq}`),
  auditExportUrl: (filters: AuditFilters) => `/api/console/audit/export.csv${query(filters)}`,
  verifyChain: () => request<ChainCheckResponse>('POST', '/audit/verify'),
  auditStats: (days: number) => request<{ days: DailyStatView[] }>('GET', `/audit/stats?days=${days}`),

  settings: () => request<ConsoleSettingsResponse>('GET', '/settings'),
  setThreshold: (engine: 'face' | 'fingerprint', oneInN: number) =>
    request<ThresholdSetting>('PUT', `/settings/threshold/${engine}`, { oneInN }),
  setFingerprintPolicy: (policy: Partial<Omit<FingerprintPolicySetting, 'available'>>) =>
    request<{ fingerprint: FingerprintPolicySetting; threshold: ThresholdSetting }>(
      'PUT',
      '/settings/fingerprint',
      policy,
    ),
  setOrchestrator: (config: Record<string, unknown>) =>
    request<{ available: boolean; config: Record<string, unknown> }>('PUT', '/settings/orchestrator', config),
  saveProfile: (profile: DocumentProfileView) =>
    request<DocumentProfileView>('PUT', `/settings/documents/profiles/${encodeURIComponent(profile.name)}`, {
      description: profile.description,
      features: profile.features,
      reference_marks: profile.reference_marks,
    }),
  addReferenceMark: (form: FormData) => postForm<ReferenceMarkView>('/settings/documents/marks', form),
  deleteReferenceMark: (id: string) =>
    request<undefined>('DELETE', `/settings/documents/marks/${encodeURIComponent(id)}`),
  referenceMarkPreviewUrl: (id: string) =>
    `/api/console/settings/documents/marks/${encodeURIComponent(id)}/preview`,
  setConsolePreferences: (preferences: { defaultCountry: string }) =>
    request<ConsolePreferences>('PUT', '/settings/console', preferences),
  setServerBind: (host: string, port: number) =>
    request<ServerBindSetting>('PUT', '/settings/server', { host, port }),

  fingerprintPreview: (form: FormData) =>
    postForm<FingerprintPreviewResponse>('/run/fingerprint-preview', form),
  enroll: (form: FormData) => postForm<EnrollResponse>('/run/enroll', form),
  /** /v2/verify's pipeline on the console session; `onEvent` hears each step start and finish, then the result. */
  verify: (form: FormData, onEvent: (event: VerifyStreamEvent) => void) =>
    postFormStream('/run/verify', form, (line) => {
      onEvent(line as VerifyStreamEvent);
    }),
  faceQuality: (form: FormData, signal?: AbortSignal) =>
    postForm<FaceQualityResponse>('/run/face-quality', form, signal),
};
