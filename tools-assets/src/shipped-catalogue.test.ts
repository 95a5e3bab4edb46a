import { describe, expect, it } from '@jest/globals';
import { InProcessJsRunner, JsToolCatalogue } from '@oneclaw/js-tools';
import { FakeBridgeHost } from '@oneclaw/js-tools/testing';
import { ToolRegistry } from '@oneclaw/tool-registry';
import { BUILTIN_JS_TOOLS_FOLDER } from './index';

/** The origin app's Google catalogue (shared/CATALOGUE.md section 6.2): group → tool names. */
const EXPECTED_GROUPS: Record<string, readonly string[]> = {
  google_calendar: [
    'calendar_list_calendars',
    'calendar_list_events',
    'calendar_get_event',
    'calendar_create_event',
    'calendar_update_event',
    'calendar_delete_event',
    'calendar_search_events',
    'calendar_quick_add',
    'calendar_get_freebusy',
    'calendar_create_calendar',
    'calendar_delete_calendar',
    'calendar_respond',
    'calendar_list_colors',
    'calendar_instances',
  ],
  google_contacts: ['contacts_list', 'contacts_search', 'contacts_get', 'contacts_create', 'contacts_update', 'contacts_delete', 'contacts_list_directory'],
  google_docs: ['docs_get', 'docs_create', 'docs_insert_text', 'docs_append_text', 'docs_get_text', 'docs_batch_update', 'docs_delete_range', 'docs_find_replace'],
  google_drive: [
    'drive_list_files',
    'drive_get_file',
    'drive_download',
    'drive_upload',
    'drive_create_folder',
    'drive_delete_file',
    'drive_rename_file',
    'drive_move_file',
    'drive_share_file',
    'drive_export',
    'drive_get_storage_quota',
    'drive_list_shared',
    'drive_search',
    'drive_copy',
    'drive_permissions',
  ],
  google_forms: ['forms_get', 'forms_list_responses', 'forms_get_response'],
  google_gmail: [
    'gmail_search',
    'gmail_get_message',
    'gmail_send',
    'gmail_reply',
    'gmail_trash',
    'gmail_untrash',
    'gmail_mark_read',
    'gmail_mark_unread',
    'gmail_add_label',
    'gmail_remove_label',
    'gmail_list_labels',
    'gmail_create_label',
    'gmail_create_draft',
    'gmail_list_drafts',
    'gmail_send_draft',
    'gmail_get_attachment',
    'gmail_list_threads',
    'gmail_get_thread',
    'gmail_modify_labels',
    'gmail_delete_label',
    'gmail_get_draft',
    'gmail_delete_draft',
    'gmail_history',
    'gmail_batch_modify',
  ],
  google_gmail_settings: [
    'gmail_settings_get_vacation',
    'gmail_settings_update_vacation',
    'gmail_settings_get_imap',
    'gmail_settings_update_imap',
    'gmail_settings_list_filters',
    'gmail_settings_create_filter',
    'gmail_settings_delete_filter',
    'gmail_settings_list_forwarding_addresses',
    'gmail_settings_get_auto_forwarding',
    'gmail_settings_list_send_as',
    'gmail_settings_get_language',
    'gmail_settings_add_forwarding',
    'gmail_settings_set_auto_forward',
    'gmail_settings_list_delegates',
  ],
  google_sheets: [
    'sheets_get',
    'sheets_read_values',
    'sheets_write_values',
    'sheets_append_values',
    'sheets_clear_values',
    'sheets_add_sheet',
    'sheets_batch_update',
    'sheets_metadata',
    'sheets_create',
  ],
  google_slides: ['slides_get', 'slides_create', 'slides_add_slide', 'slides_get_text', 'slides_batch_update', 'slides_delete_slide', 'slides_list_slides'],
  google_tasks: [
    'tasks_list_tasklists',
    'tasks_list_tasks',
    'tasks_create_task',
    'tasks_update_task',
    'tasks_complete_task',
    'tasks_delete_task',
    'tasks_create_tasklist',
    'tasks_get_task',
  ],
};

function loadShipped() {
  const registry = new ToolRegistry();
  const report = new JsToolCatalogue({
    registry,
    runner: new InProcessJsRunner(new FakeBridgeHost()),
    folders: [{ path: BUILTIN_JS_TOOLS_FOLDER, kind: 'js-built-in' }],
  }).loadAll();
  return { registry, report };
}

describe('J8 the shipped catalogue', () => {
  it('loads with no problem at all: 14 files, 113 tools, ten groups', () => {
    const { registry, report } = loadShipped();
    expect(report.files.flatMap((f) => f.problems)).toEqual([]);
    expect(report.files).toHaveLength(14);
    expect(registry.toolNames()).toHaveLength(113);
    expect([...registry.groupNames()].sort()).toEqual(Object.keys(EXPECTED_GROUPS).sort());
  });

  it('the four single-tool files are core tools', () => {
    const { registry } = loadShipped();
    expect([...registry.coreToolNames()].sort()).toEqual(['get_current_time', 'http_request', 'read_file', 'write_file']);
  });

  it("each Google group has exactly the origin catalogue's tools (109 in all)", () => {
    const { registry } = loadShipped();
    for (const [group, names] of Object.entries(EXPECTED_GROUPS)) {
      expect({ group, tools: [...registry.groupToolNames(group)].sort() }).toEqual({ group, tools: [...names].sort() });
    }
    expect(Object.values(EXPECTED_GROUPS).flat()).toHaveLength(109);
  });

  it('TEST-040-10 every group file describes itself with _meta: a display name and a one-line description', () => {
    const { registry } = loadShipped();
    for (const group of registry.allGroups()) {
      expect(group.displayName).toMatch(/^Google [A-Z]/);
      expect(group.description.length).toBeGreaterThan(20);
      expect(group.description).not.toMatch(/\n|^Tools: /);
    }
  });

  it('every tool has a description and an object schema whose required parameters are declared', () => {
    const { registry } = loadShipped();
    for (const definition of registry.allDefinitions()) {
      expect(definition.description.trim().length).toBeGreaterThan(10);
      const properties = Object.keys((definition.parameters.properties as Record<string, unknown> | undefined) ?? {});
      for (const required of (definition.parameters.required as string[] | undefined) ?? [])
        expect({ tool: definition.name, required, declared: properties.includes(required) }).toEqual({ tool: definition.name, required, declared: true });
    }
  });
});
