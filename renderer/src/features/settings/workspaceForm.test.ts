import { describe, expect, it } from 'vitest';
import type { Workspace } from '../../../../shared/ipc/channels/workspaces.ts';
import {
  KEYCHAIN_CONSENT_ERROR,
  buildCreateRequest,
  buildTestRequest,
  buildUpdateRequest,
  emptyWorkspaceForm,
  NEW_ADDRESS_KEY_ERROR,
  errorsFromDeskError,
  formFromWorkspace,
} from './workspaceForm.ts';

const valid = {
  ...emptyWorkspaceForm,
  name: ' Acme ',
  baseUrl: 'https://prod-api.ringg.ai/ca/api/v0',
  apiKey: ' key-123 ',
};

const saved: Workspace = {
  id: 'w1',
  name: 'Acme',
  baseUrl: 'https://prod-api.ringg.ai/ca/api/v0',
  isSandbox: false,
  hasApiKey: true,
  hasBearerToken: true,
  secretStorage: 'keychain',
  createdAt: '2026-11-21T10:00:00Z',
  lastTest: null,
};

describe('workspace form → create request', () => {
  it('trims values and leaves out empty optional fields', () => {
    expect(buildCreateRequest(valid, true)).toEqual({
      ok: true,
      request: { name: 'Acme', baseUrl: 'https://prod-api.ringg.ai/ca/api/v0', apiKey: 'key-123' },
    });
    expect(buildCreateRequest({ ...valid, bearerToken: 'b', sessionOnly: true }, true)).toEqual({
      ok: true,
      request: {
        name: 'Acme',
        baseUrl: 'https://prod-api.ringg.ai/ca/api/v0',
        apiKey: 'key-123',
        bearerToken: 'b',
        sessionOnly: true,
      },
    });
  });

  it('names each missing field', () => {
    expect(buildCreateRequest(emptyWorkspaceForm, true)).toEqual({
      ok: false,
      errors: { name: 'Name is required', baseUrl: 'Base URL is required', apiKey: 'API key is required' },
    });
  });

  it('uses the shared schema for the base URL rules', () => {
    const notUrl = buildCreateRequest({ ...valid, baseUrl: 'prod-api.ringg.ai' }, true);
    expect(notUrl).toMatchObject({ ok: false, errors: { baseUrl: expect.stringMatching(/full URL/) } });
    const ftp = buildCreateRequest({ ...valid, baseUrl: 'ftp://example.com/v0' }, true);
    expect(ftp).toMatchObject({ ok: false, errors: { baseUrl: expect.stringMatching(/http/) } });
    const long = buildCreateRequest({ ...valid, name: 'x'.repeat(101) }, true);
    expect(long).toEqual({ ok: false, errors: { name: 'Name is too long' } });
  });

  it('asks for consent before keeping a key in memory when there is no keychain', () => {
    expect(buildCreateRequest(valid, false)).toEqual({
      ok: false,
      errors: { sessionOnly: KEYCHAIN_CONSENT_ERROR },
    });
    expect(buildCreateRequest({ ...valid, sessionOnly: true }, false)).toMatchObject({
      ok: true,
      request: { sessionOnly: true },
    });
  });
});

describe('workspace form → update request', () => {
  it('starts from the saved name and URL with empty secrets', () => {
    expect(formFromWorkspace(saved)).toEqual({ ...emptyWorkspaceForm, name: 'Acme', baseUrl: saved.baseUrl });
  });

  it('sends only what changed; an empty key keeps the stored one', () => {
    expect(buildUpdateRequest(formFromWorkspace(saved), saved)).toEqual({ ok: true, request: { id: 'w1' } });
    expect(
      buildUpdateRequest({ ...formFromWorkspace(saved), name: 'Acme EU', apiKey: 'new' }, saved),
    ).toEqual({
      ok: true,
      request: { id: 'w1', name: 'Acme EU', apiKey: 'new' },
    });
  });

  it('removes the bearer token with null, or replaces it', () => {
    expect(
      buildUpdateRequest(
        { ...formFromWorkspace(saved), removeBearerToken: true, bearerToken: 'ignored' },
        saved,
      ),
    ).toEqual({
      ok: true,
      request: { id: 'w1', bearerToken: null },
    });
    expect(buildUpdateRequest({ ...formFromWorkspace(saved), bearerToken: 'tok' }, saved)).toEqual({
      ok: true,
      request: { id: 'w1', bearerToken: 'tok' },
    });
  });

  it('asks for the key again when the address moves to another server, not for a new path', () => {
    for (const baseUrl of [
      'https://evil.example/ca/api/v0',
      'http://prod-api.ringg.ai/ca/api/v0',
      'https://prod-api.ringg.ai:8443/ca/api/v0',
    ]) {
      expect(buildUpdateRequest({ ...formFromWorkspace(saved), baseUrl }, saved)).toEqual({
        ok: false,
        errors: { apiKey: NEW_ADDRESS_KEY_ERROR },
      });
      expect(buildUpdateRequest({ ...formFromWorkspace(saved), baseUrl, apiKey: ' k2 ' }, saved)).toEqual({
        ok: true,
        request: { id: 'w1', baseUrl, apiKey: 'k2' },
      });
    }
    const samePlace = 'https://PROD-API.ringg.ai:443/ca/api/v1/';
    expect(buildUpdateRequest({ ...formFromWorkspace(saved), baseUrl: samePlace }, saved)).toEqual({
      ok: true,
      request: { id: 'w1', baseUrl: samePlace },
    });
  });

  it('rejects an emptied name or a bad URL', () => {
    expect(buildUpdateRequest({ ...formFromWorkspace(saved), name: '  ' }, saved)).toMatchObject({
      ok: false,
      errors: { name: 'Name is required' },
    });
    expect(buildUpdateRequest({ ...formFromWorkspace(saved), baseUrl: 'nope' }, saved)).toMatchObject({
      ok: false,
      errors: { baseUrl: expect.stringMatching(/full URL/) },
    });
  });
});

describe('workspace form → test request', () => {
  it('tests draft values when a key is typed', () => {
    expect(buildTestRequest(valid, null)).toEqual({
      ok: true,
      request: { draft: { baseUrl: valid.baseUrl, apiKey: 'key-123' } },
    });
  });
  it('tests the saved workspace when editing without a new key and the same URL', () => {
    expect(buildTestRequest(formFromWorkspace(saved), saved)).toEqual({ ok: true, request: { id: 'w1' } });
  });
  it('needs a key to test a changed URL or a new workspace', () => {
    expect(
      buildTestRequest({ ...formFromWorkspace(saved), baseUrl: 'http://127.0.0.1:9/v0' }, saved),
    ).toMatchObject({
      ok: false,
      errors: { apiKey: expect.stringMatching(/Enter the API key/) },
    });
    expect(buildTestRequest({ ...valid, apiKey: '' }, null)).toEqual({
      ok: false,
      errors: { apiKey: 'API key is required' },
    });
  });
});

describe('errorsFromDeskError', () => {
  it('puts a back-end error on the field it names', () => {
    expect(errorsFromDeskError({ code: 'invalid_request', message: 'Bad URL', field: 'baseUrl' })).toEqual({
      baseUrl: 'Bad URL',
    });
    expect(
      errorsFromDeskError({ code: 'invalid_request', message: 'Bad URL', field: 'draft.baseUrl' }),
    ).toEqual({ baseUrl: 'Bad URL' });
    expect(errorsFromDeskError({ code: 'conflict', message: 'Name taken', field: 'name' })).toEqual({
      name: 'Name taken',
    });
  });
  it('falls back to a form-level error', () => {
    expect(errorsFromDeskError({ code: 'keychain_unavailable', message: 'No keychain' })).toEqual({
      form: 'No keychain',
    });
    expect(errorsFromDeskError({ code: 'invalid_request', message: 'x', field: 'row 3' })).toEqual({
      form: 'x',
    });
  });
});
