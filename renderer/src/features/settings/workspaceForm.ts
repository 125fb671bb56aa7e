import type { RequestOf } from '../../../../shared/ipc/contract.ts';
import { contract } from '../../../../shared/ipc/contract.ts';
import type { Workspace } from '../../../../shared/ipc/channels/workspaces.ts';
import type { DeskError } from '../../../../shared/ipc/result.ts';

/**
 * The add/edit workspace form as plain data: what the operator typed → a request for the contract,
 * or errors per field. The shared zod schemas decide validity, so the form and the back end agree;
 * we only add friendlier words for "required" and "too long".
 */

export interface WorkspaceFormValues {
  name: string;
  baseUrl: string;
  /** Typed by the operator; never prefilled (the renderer never receives a stored key). */
  apiKey: string;
  bearerToken: string;
  /** Edit only: drop the stored bearer token. */
  removeBearerToken: boolean;
  /** Add only: keep the secrets in memory for this session instead of the OS keychain. */
  sessionOnly: boolean;
}

export type FormField = 'name' | 'baseUrl' | 'apiKey' | 'bearerToken' | 'sessionOnly';
export type FieldErrors = Partial<Record<FormField | 'form', string>>;

type Outcome<R> = { ok: true; request: R } | { ok: false; errors: FieldErrors };

export const emptyWorkspaceForm: WorkspaceFormValues = {
  name: '',
  baseUrl: '',
  apiKey: '',
  bearerToken: '',
  removeBearerToken: false,
  sessionOnly: false,
};

export function formFromWorkspace(workspace: Workspace): WorkspaceFormValues {
  return { ...emptyWorkspaceForm, name: workspace.name, baseUrl: workspace.baseUrl };
}

const labels: Record<FormField, string> = {
  name: 'Name',
  baseUrl: 'Base URL',
  apiKey: 'API key',
  bearerToken: 'Bearer token',
  sessionOnly: 'Session only',
};

export const KEYCHAIN_CONSENT_ERROR =
  'Tick this box to save the key: without an OS keychain it can only be kept in memory until Campaign Desk quits.';

const isFormField = (name: string): name is FormField => Object.prototype.hasOwnProperty.call(labels, name);

/** Turns a zod issue (from the shared schema) into words for one field. */
function issueMessage(field: FormField, code: string, message: string): string {
  if (code === 'too_small') return `${labels[field]} is required`;
  if (code === 'too_big') return `${labels[field]} is too long`;
  return message;
}

function schemaErrors(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; code: string; message: string }>,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = [...issue.path]
      .reverse()
      .find((p): p is FormField => typeof p === 'string' && isFormField(p));
    if (key) errors[key] ??= issueMessage(key, issue.code, issue.message);
    else errors.form ??= issue.message;
  }
  return errors;
}

const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;

function requiredErrors(values: WorkspaceFormValues, fields: FormField[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of fields) {
    const value = values[field];
    if (typeof value === 'string' && value.trim() === '') errors[field] = `${labels[field]} is required`;
  }
  return errors;
}

export function buildCreateRequest(
  values: WorkspaceFormValues,
  keychainAvailable: boolean,
): Outcome<RequestOf<'workspaces:create'>> {
  const request: RequestOf<'workspaces:create'> = {
    name: values.name.trim(),
    baseUrl: values.baseUrl.trim(),
    apiKey: values.apiKey.trim(),
  };
  if (values.bearerToken.trim() !== '') request.bearerToken = values.bearerToken.trim();
  if (values.sessionOnly) request.sessionOnly = true;

  const parsed = contract['workspaces:create'].request.safeParse(request);
  const errors: FieldErrors = {
    ...(parsed.success ? {} : schemaErrors(parsed.error.issues)),
    ...requiredErrors(values, ['name', 'baseUrl', 'apiKey']),
  };
  if (!keychainAvailable && !values.sessionOnly) errors.sessionOnly = KEYCHAIN_CONSENT_ERROR;
  return hasErrors(errors) ? { ok: false, errors } : { ok: true, request };
}

/** Scheme, host and port of a URL (null when it is not one): the server a key is sent to. */
const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

export const NEW_ADDRESS_KEY_ERROR =
  'Enter the API key again for the new address: a saved key is only sent to the address it was entered for (the bearer token too, if the workspace uses one).';

export function buildUpdateRequest(
  values: WorkspaceFormValues,
  original: Workspace,
): Outcome<RequestOf<'workspaces:update'>> {
  const request: RequestOf<'workspaces:update'> = { id: original.id };
  if (values.name.trim() !== original.name) request.name = values.name.trim();
  if (values.baseUrl.trim() !== original.baseUrl) request.baseUrl = values.baseUrl.trim();
  if (values.apiKey.trim() !== '') request.apiKey = values.apiKey.trim();
  if (values.removeBearerToken) request.bearerToken = null;
  else if (values.bearerToken.trim() !== '') request.bearerToken = values.bearerToken.trim();

  const parsed = contract['workspaces:update'].request.safeParse(request);
  const errors: FieldErrors = {
    ...(parsed.success ? {} : schemaErrors(parsed.error.issues)),
    ...requiredErrors(values, ['name', 'baseUrl']),
  };
  // Another server (scheme, host or port): the back end refuses to keep the saved key for it.
  const origin = request.baseUrl === undefined ? null : originOf(request.baseUrl);
  if (origin !== null && origin !== originOf(original.baseUrl) && request.apiKey === undefined)
    errors.apiKey ??= NEW_ADDRESS_KEY_ERROR;
  return hasErrors(errors) ? { ok: false, errors } : { ok: true, request };
}

/**
 * "Test connection" inside the dialog. With a key typed in, test the draft values (nothing is stored).
 * Editing without a new key, the saved workspace is tested, which only makes sense for its saved URL.
 */
export function buildTestRequest(
  values: WorkspaceFormValues,
  original: Workspace | null,
): Outcome<RequestOf<'workspaces:test'>> {
  const apiKey = values.apiKey.trim();
  const baseUrl = values.baseUrl.trim();
  if (apiKey === '' && original && baseUrl === original.baseUrl)
    return { ok: true, request: { id: original.id } };
  const errors = requiredErrors(values, ['baseUrl', 'apiKey']);
  if (errors.apiKey && original)
    errors.apiKey = 'Enter the API key to test the new base URL, or save first and test from the list.';
  const request = { draft: { baseUrl, apiKey } };
  const parsed = contract['workspaces:test'].request.safeParse(request);
  if (!parsed.success && !hasErrors(errors)) Object.assign(errors, schemaErrors(parsed.error.issues));
  return hasErrors(errors) ? { ok: false, errors } : { ok: true, request };
}

/** A back-end error → where to show it: on its field when it names one of ours, else on the form. */
export function errorsFromDeskError(error: DeskError): FieldErrors {
  if (error.field) {
    const key = error.field
      .split(/[.[\]]/)
      .reverse()
      .find((part) => isFormField(part));
    if (key) return { [key]: error.message };
  }
  return { form: error.message };
}
