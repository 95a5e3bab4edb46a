export { FAKE_GOOGLE_ACCESS_TOKEN, FakeGoogleApi, GoogleApiError, googleError, requireFields, requireQuery, type GoogleRequest, type GoogleResponse, type GoogleRouteHandler } from './fake-google-api';
export { startToolHarness, type ToolHarness, type ToolHarnessOptions } from './tool-harness';
