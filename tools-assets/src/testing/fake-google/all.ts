import type { FakeGoogleApi } from '../fake-google-api';
import { registerCalendarRoutes, type CalendarFake } from './calendar';
import { registerDocsRoutes, type DocsFake } from './docs';
import { registerDriveRoutes, type DriveFake } from './drive';
import { registerFormsRoutes, type FormsFake } from './forms';
import { registerGmailRoutes, type GmailFake } from './gmail';
import { registerGmailSettingsRoutes, type GmailSettingsFake } from './gmail-settings';
import { registerPeopleRoutes, type PeopleFake } from './people';
import { registerSheetsRoutes, type SheetsFake } from './sheets';
import { registerSlidesRoutes, type SlidesFake } from './slides';
import { registerTasksRoutes, type TasksFake } from './tasks';

export interface GoogleWorkspaceFake {
  readonly gmail: GmailFake;
  readonly gmailSettings: GmailSettingsFake;
  readonly drive: DriveFake;
  readonly calendar: CalendarFake;
  readonly people: PeopleFake;
  readonly docs: DocsFake;
  readonly sheets: SheetsFake;
  readonly slides: SlidesFake;
  readonly forms: FormsFake;
  readonly tasks: TasksFake;
}

/** Every fake Google API the shipped groups call, on one FakeGoogleApi (server scenarios, benchmarks). */
export function registerAllGoogleRoutes(api: FakeGoogleApi): GoogleWorkspaceFake {
  const gmail = registerGmailRoutes(api);
  return {
    gmail,
    // Filters refer to the mailbox's labels, so the settings fake checks them against the Gmail fake.
    gmailSettings: registerGmailSettingsRoutes(api, { mailbox: gmail }),
    drive: registerDriveRoutes(api),
    calendar: registerCalendarRoutes(api),
    people: registerPeopleRoutes(api),
    docs: registerDocsRoutes(api),
    sheets: registerSheetsRoutes(api),
    slides: registerSlidesRoutes(api),
    forms: registerFormsRoutes(api),
    tasks: registerTasksRoutes(api),
  };
}
