export {
  FAKE_GOOGLE_ACCESS_TOKEN,
  FakeGoogleApi,
  GoogleApiError,
  googleError,
  requireFields,
  requireQuery,
  type GoogleRequest,
  type GoogleResponse,
  type GoogleRouteHandler,
} from './fake-google-api';
export { startToolHarness, type ToolHarness, type ToolHarnessOptions } from './tool-harness';
export { registerAllGoogleRoutes, type GoogleWorkspaceFake } from './fake-google/all';
export { registerCalendarRoutes, type CalendarFake } from './fake-google/calendar';
export { registerDocsRoutes, type DocsFake } from './fake-google/docs';
export { registerDriveRoutes, type DriveFake } from './fake-google/drive';
export { registerFormsRoutes, type FormsFake } from './fake-google/forms';
export { GMAIL_SEED_ATTACHMENT, parseMime, registerGmailRoutes, type GmailFake } from './fake-google/gmail';
export { registerGmailSettingsRoutes, type GmailSettingsFake } from './fake-google/gmail-settings';
export { registerPeopleRoutes, type PeopleFake } from './fake-google/people';
export { registerSheetsRoutes, type SheetsFake } from './fake-google/sheets';
export { registerSlidesRoutes, type SlidesFake } from './fake-google/slides';
export { registerTasksRoutes, type TasksFake } from './fake-google/tasks';
export { googleToolChecks, type GoogleToolChecks } from './google-tool-checks';
