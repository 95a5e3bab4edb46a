import { GoogleApiError, type FakeGoogleApi, type GoogleRequest } from '../fake-google-api';
import { rejectUnknownQuery } from './api-checks';

const HOST = 'forms.googleapis.com';

export interface FakeForm {
  readonly formId: string;
  /** The Form resource as forms.get returns it. */
  readonly resource: Record<string, unknown>;
  /** FormResponse resources, oldest first. */
  readonly responses: Record<string, unknown>[];
}

export interface FormsFake {
  readonly forms: Map<string, FakeForm>;
  readonly seeded: {
    /** A survey with one item of every kind and three responses. */
    readonly survey: string;
    readonly surveyResponses: readonly string[];
    /** A form with no responses yet. */
    readonly empty: string;
  };
}

/**
 * A fake of the Google Forms API v1 read methods (forms.get, forms.responses.list,
 * forms.responses.get) over two seeded forms: a survey with one item of each kind the reference
 * documents (choice, text, scale, date, time, file upload, rating, a grid as a question group, page
 * break, text item) and its responses with text, file-upload and grid answers. responses.list
 * checks `pageSize` (non-negative), ties page tokens to the form and filter, accepts only the
 * `timestamp > / >= <RFC 3339>` filters the reference allows, and leaves empty lists out of the
 * JSON as the API does. Unknown form or response ids are 404.
 */
export function registerFormsRoutes(api: FakeGoogleApi): FormsFake {
  const forms = new Map<string, FakeForm>();
  const survey = seedSurvey();
  const empty: FakeForm = {
    formId: '1EmptyFormFakeId0000000000000000000000000000',
    resource: {
      formId: '1EmptyFormFakeId0000000000000000000000000000',
      info: { title: 'Empty form', documentTitle: 'Untitled form' },
      revisionId: '00000002',
      responderUri: 'https://docs.google.com/forms/d/e/1FAIpQLSfEmptyFakeForm/viewform',
    },
    responses: [],
  };
  forms.set(survey.formId, survey);
  forms.set(empty.formId, empty);

  const find = (id: string): FakeForm => {
    const form = forms.get(id);
    if (!form) throw new GoogleApiError(404, 'Requested entity was not found.', 'NOT_FOUND');
    return form;
  };

  api.route('GET', HOST, '/v1/forms/{formId}', (req) => {
    rejectUnknownQuery(req, []);
    return { json: find(req.params.formId as string).resource };
  });

  api.route('GET', HOST, '/v1/forms/{formId}/responses', (req) => {
    rejectUnknownQuery(req, ['filter', 'pageSize', 'pageToken']);
    const form = find(req.params.formId as string);
    const filter = req.query.get('filter') ?? '';
    const since = parseFilter(filter);
    const pageSize = pageSizeOf(req);
    const hits = form.responses.filter((r) => since(Date.parse(r.lastSubmittedTime as string)));
    const offset = offsetOf(req, `${form.formId}|${filter}`);
    const page = hits.slice(offset, offset + pageSize);
    const answer: Record<string, unknown> = {};
    if (page.length > 0) answer.responses = page;
    if (offset + pageSize < hits.length) answer.nextPageToken = Buffer.from(JSON.stringify({ o: offset + pageSize, k: `${form.formId}|${filter}` })).toString('base64url');
    return { json: answer };
  });

  api.route('GET', HOST, '/v1/forms/{formId}/responses/{responseId}', (req) => {
    rejectUnknownQuery(req, []);
    const form = find(req.params.formId as string);
    const response = form.responses.find((r) => r.responseId === req.params.responseId);
    if (!response) throw new GoogleApiError(404, 'Requested entity was not found.', 'NOT_FOUND');
    return { json: response };
  });

  return {
    forms,
    seeded: { survey: survey.formId, surveyResponses: survey.responses.map((r) => r.responseId as string), empty: empty.formId },
  };
}

/** The reference allows `timestamp > N` and `timestamp >= N` with N an RFC 3339 UTC time. */
function parseFilter(filter: string): (submitted: number) => boolean {
  if (filter.trim() === '') return () => true;
  const match = /^\s*timestamp\s*(>=|>)\s*(\S+)\s*$/.exec(filter);
  const at = match ? Date.parse(match[2] as string) : NaN;
  if (!match || Number.isNaN(at))
    throw new GoogleApiError(400, `Invalid filter: '${filter}'. Use 'timestamp > N' or 'timestamp >= N' with N in RFC 3339 format.`, 'INVALID_ARGUMENT');
  return match[1] === '>' ? (t) => t > at : (t) => t >= at;
}

function pageSizeOf(req: GoogleRequest): number {
  const raw = req.query.get('pageSize');
  if (raw === null) return 5000;
  if (!/^\d+$/.test(raw)) throw new GoogleApiError(400, `Invalid value at 'page_size' (TYPE_INT32), "${raw}"`, 'INVALID_ARGUMENT');
  // Unset or zero means at most 5000; larger values are capped.
  const size = Number(raw);
  return size === 0 ? 5000 : Math.min(size, 5000);
}

function offsetOf(req: GoogleRequest, key: string): number {
  const token = req.query.get('pageToken');
  if (!token) return 0;
  try {
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o: number; k: string };
    if (decoded.k === key && Number.isInteger(decoded.o) && decoded.o >= 0) return decoded.o;
  } catch {
    // Falls through to the error below.
  }
  throw new GoogleApiError(400, 'Invalid page token.', 'INVALID_ARGUMENT');
}

function seedSurvey(): FakeForm {
  const formId = '1SurveyFakeFormId_k3J9sQpL0aB2cD4eF6gH8iJ0kL';
  const q = {
    name: '1a2b3c4d',
    role: '2b3c4d5e',
    colour: '3c4d5e6f',
    feedback: '4d5e6f70',
    satisfaction: '5e6f7081',
    start: '6f708192',
    time: '708192a3',
    cv: '8192a3b4',
    rating: '92a3b4c5',
    speed: 'a3b4c5d6',
    quality: 'b4c5d6e7',
  };
  const items = [
    { itemId: '00000001', title: 'Your name', questionItem: { question: { questionId: q.name, required: true, textQuestion: {} } } },
    {
      itemId: '00000002',
      title: 'Your role',
      questionItem: {
        question: { questionId: q.role, required: true, choiceQuestion: { type: 'DROP_DOWN', options: [{ value: 'Engineer' }, { value: 'Designer' }, { value: 'Manager' }] } },
      },
    },
    {
      itemId: '00000003',
      title: 'Favourite colours',
      description: 'Pick any',
      questionItem: { question: { questionId: q.colour, choiceQuestion: { type: 'CHECKBOX', options: [{ value: 'Red' }, { value: 'Blue' }, { isOther: true }], shuffle: false } } },
    },
    { itemId: '00000004', title: 'Anything else?', questionItem: { question: { questionId: q.feedback, textQuestion: { paragraph: true } } } },
    { itemId: '00000005', title: 'Details', pageBreakItem: {} },
    {
      itemId: '00000006',
      title: 'How satisfied are you?',
      questionItem: { question: { questionId: q.satisfaction, required: true, scaleQuestion: { low: 1, high: 5, lowLabel: 'Not at all', highLabel: 'Very' } } },
    },
    { itemId: '00000007', title: 'Start date', questionItem: { question: { questionId: q.start, dateQuestion: { includeYear: true, includeTime: false } } } },
    { itemId: '00000008', title: 'Hours per week', questionItem: { question: { questionId: q.time, timeQuestion: { duration: true } } } },
    {
      itemId: '00000009',
      title: 'Upload your CV',
      questionItem: { question: { questionId: q.cv, fileUploadQuestion: { folderId: '1UploadsFolderFakeId', types: ['PDF', 'DOCUMENT'], maxFiles: 1, maxFileSize: '10485760' } } },
    },
    { itemId: '0000000a', title: 'Rate us', questionItem: { question: { questionId: q.rating, ratingQuestion: { ratingScaleLevel: 5, iconType: 'STAR' } } } },
    {
      itemId: '0000000b',
      title: 'Rate our service',
      questionGroupItem: {
        questions: [
          { questionId: q.speed, required: true, rowQuestion: { title: 'Speed' } },
          { questionId: q.quality, rowQuestion: { title: 'Quality' } },
        ],
        grid: { columns: { type: 'RADIO', options: [{ value: 'Poor' }, { value: 'Good' }, { value: 'Great' }] } },
      },
    },
    { itemId: '0000000c', title: 'Thank you!', description: 'We read every answer.', textItem: {} },
  ];
  const text = (questionId: string, ...values: string[]) => ({ questionId, textAnswers: { answers: values.map((value) => ({ value })) } });
  const answers = (...list: ({ questionId: string } & Record<string, unknown>)[]) => Object.fromEntries(list.map((a) => [a.questionId, a]));
  const responses = [
    {
      formId,
      responseId: 'ACYDBNhFakeResponse0001',
      createTime: '2025-02-10T10:00:00.000Z',
      lastSubmittedTime: '2025-02-10T10:00:00.000Z',
      respondentEmail: 'ana@example.com',
      answers: answers(
        text(q.name, 'Ana'),
        text(q.role, 'Engineer'),
        text(q.colour, 'Red', 'Teal'),
        text(q.satisfaction, '4'),
        text(q.start, '2025-03-01'),
        text(q.speed, 'Great'),
        text(q.quality, 'Good'),
        {
          questionId: q.cv,
          fileUploadAnswers: { answers: [{ fileId: '1AnaCvFakeFileId', fileName: 'Ana CV.pdf', mimeType: 'application/pdf' }] },
        },
      ),
    },
    {
      formId,
      responseId: 'ACYDBNhFakeResponse0002',
      createTime: '2025-02-11T08:30:00.000Z',
      lastSubmittedTime: '2025-02-12T09:15:00.000Z',
      respondentEmail: 'ben@example.com',
      answers: answers(text(q.name, 'Ben'), text(q.role, 'Designer'), text(q.satisfaction, '2'), text(q.feedback, 'More coffee, please.'), text(q.time, '12:30:00')),
    },
    {
      formId,
      responseId: 'ACYDBNhFakeResponse0003',
      createTime: '2025-02-13T17:45:00.000Z',
      lastSubmittedTime: '2025-02-13T17:45:00.000Z',
      respondentEmail: 'cy@example.com',
      answers: answers(text(q.name, 'Cy'), text(q.role, 'Manager'), text(q.satisfaction, '5'), text(q.speed, 'Good')),
    },
  ];
  return {
    formId,
    resource: {
      formId,
      info: { title: 'Team survey 2025', documentTitle: 'Team survey (responses)', description: 'Five minutes, anonymous to the team.' },
      settings: { emailCollectionType: 'VERIFIED' },
      revisionId: '0000004c',
      responderUri: 'https://docs.google.com/forms/d/e/1FAIpQLSfTeamSurveyFakeForm/viewform',
      items,
      linkedSheetId: '1LinkedSheetFakeId',
    },
    responses,
  };
}
