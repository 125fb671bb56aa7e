import type { FormEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import type { ConnectionTest, Workspace } from '../../../../shared/ipc/channels/workspaces.ts';
import { useApp } from '../../app/appStore.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { CheckboxField, TextField } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { TestResult } from './TestResult.tsx';
import type { FieldErrors, WorkspaceFormValues } from './workspaceForm.ts';
import {
  buildCreateRequest,
  buildTestRequest,
  buildUpdateRequest,
  emptyWorkspaceForm,
  errorsFromDeskError,
  formFromWorkspace,
} from './workspaceForm.ts';

/** The fields a connection test depends on. */
const TESTED_FIELDS: ReadonlySet<keyof WorkspaceFormValues> = new Set([
  'baseUrl',
  'apiKey',
  'bearerToken',
  'removeBearerToken',
]);

/**
 * Add or edit a workspace. Secrets typed here go straight to the back end (which puts them in the
 * keychain) and are dropped with this component's state when the dialog closes.
 */
export function WorkspaceDialog({
  workspace,
  onClose,
}: {
  workspace: Workspace | null;
  onClose: () => void;
}) {
  const editing = workspace !== null;
  const keychain = useApp((s) => s.info?.keychain ?? { available: true });
  const [values, setValues] = useState<WorkspaceFormValues>(() =>
    workspace ? formFromWorkspace(workspace) : emptyWorkspaceForm,
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<(ConnectionTest & { at: string }) | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [errorRound, setErrorRound] = useState(0);

  // After a failed submit or test, move focus to the first field with an error.
  useEffect(() => {
    if (errorRound > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errorRound]);
  const showErrors = (next: FieldErrors) => {
    setErrors(next);
    setErrorRound((n) => n + 1);
  };

  // A connection test answers for the values it was run with: changing one of them drops its
  // result (and the answer of a test still running), so an old error never stands beside a new URL.
  const testRound = useRef(0);
  const update = <K extends keyof WorkspaceFormValues>(key: K, value: WorkspaceFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _dropped, form: _form, ...rest }) => rest);
    if (TESTED_FIELDS.has(key)) {
      testRound.current++;
      setTest(null);
      setTesting(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    let result;
    if (workspace) {
      const built = buildUpdateRequest(values, workspace);
      if (!built.ok) return showErrors(built.errors);
      setSaving(true);
      result = await desk().workspaces.update(built.request);
    } else {
      const built = buildCreateRequest(values, keychain.available);
      if (!built.ok) return showErrors(built.errors);
      setSaving(true);
      result = await desk().workspaces.create(built.request);
    }
    setSaving(false);
    if (!result.ok) {
      showErrors(errorsFromDeskError(result.error));
      return;
    }
    await useApp.getState().refreshWorkspaces();
    toast.success(
      editing
        ? `Saved “${result.value.name}”.`
        : `Added “${result.value.name}”. Use Test connection to check its key.`,
    );
    onClose();
  };

  const runTest = async () => {
    const built = buildTestRequest(values, workspace);
    if (!built.ok) {
      showErrors(built.errors);
      return;
    }
    const round = ++testRound.current;
    setTesting(true);
    setTest(null);
    const result = await desk().workspaces.test(built.request);
    if (round !== testRound.current) return; // the values changed meanwhile: not their answer
    setTesting(false);
    const at = new Date().toISOString();
    if (result.ok) setTest({ ...result.value, at });
    else if (result.error.field) showErrors(errorsFromDeskError(result.error));
    else setTest({ ok: false, message: result.error.message, credits: null, workspaceName: null, at });
  };

  return (
    <Dialog open title={editing ? `Edit ${workspace.name}` : 'Add workspace'} onClose={onClose}>
      <form
        ref={formRef}
        className="form"
        onSubmit={submit}
        noValidate
        aria-label={editing ? 'Edit workspace' : 'Add workspace'}
      >
        <div className="dialog-body">
          {errors.form ? (
            <Notice tone="error" role="alert">
              <p>{errors.form}</p>
            </Notice>
          ) : null}
          <TextField
            label="Name"
            value={values.name}
            onChange={(v) => update('name', v)}
            error={errors.name}
            autoComplete="off"
            maxLength={100}
          />
          <TextField
            label="Base URL"
            type="url"
            value={values.baseUrl}
            onChange={(v) => update('baseUrl', v)}
            error={errors.baseUrl}
            autoComplete="off"
            spellCheck={false}
            placeholder="https://prod-api.ringg.ai/ca/api/v0"
            hint="The service root, including the version segment (v0)."
          />
          <TextField
            label="API key"
            type="password"
            value={values.apiKey}
            onChange={(v) => update('apiKey', v)}
            error={errors.apiKey}
            autoComplete="off"
            spellCheck={false}
            hint={
              editing
                ? workspace.secretStorage === 'session'
                  ? 'Leave empty to keep the current key (kept for this session only); a new server needs it again.'
                  : 'Leave empty to keep the current key; a new server needs it again.'
                : 'Sent with every request as X-API-KEY. It is never shown again after you save.'
            }
          />
          <TextField
            label="Bearer token"
            optional
            type="password"
            value={values.bearerToken}
            onChange={(v) => update('bearerToken', v)}
            error={errors.bearerToken}
            autoComplete="off"
            spellCheck={false}
            disabled={values.removeBearerToken}
            hint={
              editing && workspace.hasBearerToken
                ? 'Leave empty to keep the current token; a new server needs it again.'
                : "Only some operations (such as editing an agent's event subscriptions) need it."
            }
          />
          {editing && workspace.hasBearerToken ? (
            <CheckboxField
              label="Remove the stored bearer token"
              checked={values.removeBearerToken}
              onChange={(v) => update('removeBearerToken', v)}
            />
          ) : null}
          {!editing ? (
            <>
              {!keychain.available ? (
                <Notice tone="warning" role="note">
                  <p className="notice-title">{keychain.message ?? 'No OS keychain is available.'}</p>
                  <p>
                    Keys are never written to disk in plain text. You can keep this key in memory until
                    Campaign Desk quits.
                  </p>
                </Notice>
              ) : null}
              <CheckboxField
                label="Keep the key for this session only"
                checked={values.sessionOnly}
                onChange={(v) => update('sessionOnly', v)}
                error={errors.sessionOnly}
                hint={
                  keychain.available
                    ? 'Otherwise it is stored in the OS keychain. Session keys are forgotten when Campaign Desk quits.'
                    : 'It is forgotten when Campaign Desk quits; you will enter it again next time.'
                }
              />
            </>
          ) : null}
          {testing || test ? (
            <div className="dialog-test" role="status" aria-live="polite">
              {testing ? (
                <span className="muted">Testing connection…</span>
              ) : test ? (
                <TestResult outcome={test} />
              ) : null}
            </div>
          ) : null}
        </div>
        <footer className="dialog-footer">
          <Button onClick={() => void runTest()} busy={testing} className="dialog-footer-start">
            Test connection
          </Button>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={saving}>
            {editing ? 'Save changes' : 'Add workspace'}
          </Button>
        </footer>
      </form>
    </Dialog>
  );
}
