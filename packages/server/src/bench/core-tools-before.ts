/**
 * F1 baseline (issue 17): the 13 core tools exactly as the server registered them before their
 * descriptions were tightened (commit c3fcd94), in OpenAI's function shape. The catalogue bench
 * counts these as the "before" column next to what the registry sends today, so the old figures
 * stay reproducible without git.
 */
export interface CoreToolBefore {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

export const CORE_TOOLS_BEFORE: readonly CoreToolBefore[] = [
  {
    name: 'load_skill',
    description:
      "Load a skill's full instructions by its name, as listed under Available Skills. The answer lists the skill's other files; read one with the name 'skill-name/path/to/file'.",
    parameters: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          description: "The skill's name, e.g. 'write-js-tool', or 'skill-name/file' for one of its files.",
        },
      },
      required: ['name'],
    },
  },
  {
    name: 'load_tool_group',
    description:
      'Load all tools in a tool group to make them available for use. You MUST load a tool group before you can use any tools in it. After loading, the tools will be available for the rest of this conversation.',
    parameters: {
      type: 'object',
      properties: {
        group_name: {
          type: 'string',
          description: 'The name of the tool group to load',
        },
      },
      required: ['group_name'],
    },
  },
  {
    name: 'save_memory',
    description:
      'Save a lasting fact about the user (who they are, what they prefer, their routines, interests and projects) to long-term memory, shown to you in every later conversation. Save one fact per call, in a full sentence; do not save what memory already holds.',
    parameters: {
      type: 'object',
      properties: {
        content: {
          type: 'string',
          maxLength: 5000,
          description: 'The fact to remember, at most 5000 characters.',
        },
        category: {
          type: 'string',
          enum: ['profile', 'preferences', 'interests', 'habits', 'projects', 'notes'],
          description: 'profile (who the user is), preferences, interests, habits (routines, workflow), projects, or notes (default).',
        },
      },
      required: ['content'],
    },
  },
  {
    name: 'search_history',
    description:
      'Search past conversations (user and assistant messages of every session) and saved memory by words, best match first. Each result gives where it comes from, its date and the text around the match.',
    parameters: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: "Words to look for, e.g. 'flight Lisbon booking'.",
        },
        scope: {
          type: 'string',
          enum: ['all', 'memory', 'sessions'],
          description: "'all' (default), 'memory' (saved memory only) or 'sessions' (conversations only).",
        },
        date_from: {
          type: 'string',
          description: 'Only results from this day on, YYYY-MM-DD.',
        },
        date_to: {
          type: 'string',
          description: 'Only results up to this day (inclusive), YYYY-MM-DD.',
        },
        max_results: {
          type: 'integer',
          minimum: 1,
          description: 'How many results to return: default 10, at most 50.',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'exec',
    description:
      'Run a shell command (sh -c) in the files folder and return its exit code, output and error output. The command and every process it starts are killed at the timeout or when it exits. Disabled on this server: every call fails with exec_disabled.',
    parameters: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          description: "The shell command, e.g. 'ls -la' or 'grep -rn TODO notes'.",
        },
        timeout_seconds: {
          type: 'number',
          description: 'Seconds before the command is killed: default 30, from 1 to 120.',
        },
        working_directory: {
          type: 'string',
          description: 'Folder to run in, relative to the files folder (default: the files folder itself). It must exist.',
        },
        max_length: {
          type: 'integer',
          minimum: 1,
          description: 'Most characters of output returned (default 50000, at most 29000); the rest is cut.',
        },
      },
      required: ['command'],
    },
  },
  {
    name: 'js_eval',
    description:
      'Run JavaScript in the sandbox of JS tools (no require or process; fetch, fs, console, lib and _env are available) and return the value of the last expression, or the awaited result of main() if the code defines one (use async function main() to await). Objects come back as JSON; console output is returned after the value.',
    parameters: {
      type: 'object',
      properties: {
        code: {
          type: 'string',
          description: 'JavaScript source. For await, define async function main() { ... } and return the result from it.',
        },
        timeout_seconds: {
          type: 'number',
          minimum: 1,
          maximum: 120,
          description: 'Seconds the code may run before it is stopped: default 30, from 1 to 120.',
        },
      },
      required: ['code'],
    },
  },
  {
    name: 'webfetch',
    description:
      'Fetch a web page by URL and return its content as Markdown (HTML converted; plain text, Markdown, JSON and XML as they are). For pages that need JavaScript or for a picture of the page, use browser.',
    parameters: {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          description: 'The full http:// or https:// URL of the page.',
        },
        max_length: {
          type: 'integer',
          minimum: 100,
          maximum: 1000000,
          description: 'Most characters of content to return; longer pages are cut at a paragraph boundary. Default 50000, at most 29000 per call (read on with start_index).',
        },
        start_index: {
          type: 'integer',
          minimum: 0,
          description: 'The character of the content to start at, to read on where a cut answer stopped; default 0.',
        },
      },
      required: ['url'],
    },
  },
  {
    name: 'browser',
    description:
      'Open a web page in a headless browser (JavaScript runs) and either save a screenshot (mode "screenshot", a PNG in the files folder) or return the rendered page as Markdown (mode "extract"). Optionally run JavaScript in the page first. Use webfetch for simple pages.',
    parameters: {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          description: 'The full http:// or https:// URL to open.',
        },
        mode: {
          type: 'string',
          enum: ['screenshot', 'extract'],
          description: '"screenshot" saves a PNG; "extract" returns the page content as Markdown.',
        },
        width: {
          type: 'integer',
          description: 'Viewport width in pixels (200-2560); default 412 (a phone).',
        },
        height: {
          type: 'integer',
          description: 'Viewport height in pixels (200-4096); default 915.',
        },
        wait_seconds: {
          type: 'number',
          description: 'Seconds to wait after the page has loaded, for late content (0-30); default 2.',
        },
        full_page: {
          type: 'boolean',
          description: 'Screenshot the whole scrollable page instead of the viewport; default false.',
        },
        max_length: {
          type: 'integer',
          minimum: 100,
          maximum: 1000000,
          description: 'Most characters of content for "extract"; default 50000, at most 29000 per call (read on with start_index).',
        },
        start_index: {
          type: 'integer',
          minimum: 0,
          description: 'For "extract": the character of the content to start at, to read on where a cut answer stopped; default 0.',
        },
        javascript: {
          type: 'string',
          description:
            'JavaScript run in the page after it has loaded, before the screenshot or extract (e.g. to click or scroll). Its JSON-serialisable result (the last expression, or an awaited promise) is included.',
        },
      },
      required: ['url', 'mode'],
    },
  },
  {
    name: 'create_agent',
    description: 'Creates an agent (a named assistant with its own system prompt) and answers with its id; a new conversation can use it at once.',
    parameters: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 100,
          description: 'The agent’s name.',
        },
        description: {
          type: 'string',
          maxLength: 2000,
          description: 'What the agent is for.',
        },
        system_prompt: {
          type: 'string',
          minLength: 1,
          maxLength: 50000,
          description: 'Who the agent is and how it works: its system prompt.',
        },
      },
      required: ['name', 'system_prompt'],
    },
  },
  {
    name: 'get_current_time',
    description: 'Get the current date and time, in a given timezone and format.',
    parameters: {
      type: 'object',
      properties: {
        timezone: {
          type: 'string',
          description: "IANA timezone, e.g. 'America/New_York' or 'UTC'. Defaults to the server's timezone.",
        },
        format: {
          type: 'string',
          enum: ['iso8601', 'human_readable'],
          description: "'iso8601' (default, e.g. 2026-11-22T14:03:05+01:00) or 'human_readable'.",
        },
      },
    },
  },
  {
    name: 'http_request',
    description: 'Make an HTTP request and return the status, main headers and body (long bodies are cut).',
    parameters: {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          description: 'The http:// or https:// URL to request.',
        },
        method: {
          type: 'string',
          enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
          description: 'HTTP method; default GET.',
        },
        headers: {
          type: 'object',
          additionalProperties: {
            type: 'string',
          },
          description: 'Request headers as name: value pairs.',
        },
        body: {
          type: 'string',
          description: 'Request body (ignored for GET and HEAD).',
        },
      },
      required: ['url'],
    },
  },
  {
    name: 'read_file',
    description: 'Read a file from the files folder and return its contents.',
    parameters: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: "Path of the file, relative to the files folder, e.g. 'notes/todo.md'.",
        },
        encoding: {
          type: 'string',
          enum: ['utf8', 'base64'],
          description: "'utf8' (default) for text; 'base64' returns the bytes of a binary file as base64.",
        },
      },
      required: ['path'],
    },
  },
  {
    name: 'write_file',
    description: 'Write text to a file in the files folder, replacing it or appending to it; missing folders are created.',
    parameters: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: "Path of the file, relative to the files folder, e.g. 'notes/todo.md'.",
        },
        content: {
          type: 'string',
          description: 'The text to write.',
        },
        mode: {
          type: 'string',
          enum: ['overwrite', 'append'],
          description: "'overwrite' (default) replaces the file; 'append' adds to its end.",
        },
      },
      required: ['path', 'content'],
    },
  },
];

/** The group descriptions the "Available Tool Groups" section listed then (14 groups). */
export const GROUP_DESCRIPTIONS_BEFORE: Readonly<Record<string, string>> = {
  config: 'Manage LLM providers and models, agents, settings, environment variables for tools, and which tools are enabled.',
  pdf: 'Read PDF files: page count and metadata, text of chosen pages, and a page rendered as a PNG image.',
  scheduled_tasks: 'Schedule a prompt to run once, daily or weekly as a new conversation; list, run now, update and delete tasks.',
  js_tool_management: 'Create, list, update and delete your own JavaScript tools (run in the sandbox, available at once).',
  google_calendar: 'List, create, update and delete calendar events, answer invitations, check free/busy and manage calendars.',
  google_contacts: "Search, list, create, update and delete the user's contacts and look people up in the organisation's directory.",
  google_docs: 'Create, read, edit and format Google Docs documents: insert, append, delete, find and replace text, or send any batchUpdate request.',
  google_drive: 'List, search, upload, download, export, share, copy, move, rename and delete files and folders in Google Drive.',
  google_forms: "Read Google Forms: a form's questions, and the responses submitted to it (read-only).",
  google_gmail: 'Search, read, send, reply to, draft, label, trash and archive Gmail messages and threads; save attachments.',
  google_gmail_settings: 'Gmail settings: vacation auto-reply, IMAP, filters, forwarding and auto-forwarding, send-as addresses and signatures, language and delegates.',
  google_sheets: 'Create spreadsheets, read, write, append and clear cell values in A1 ranges, add sheets and apply formatting or structural batch updates.',
  google_slides: 'Create presentations, list, add and delete slides, read slide texts and edit slides with batch updates.',
  google_tasks: 'List, create, update, complete and delete tasks and create task lists.',
};
