import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { registerFormsRoutes, type FormsFake } from '../testing/fake-google/forms';
import { googleToolChecks, type GoogleToolChecks } from '../testing/google-tool-checks';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';

let h: ToolHarness;
let forms: FormsFake;
let c: GoogleToolChecks;
beforeAll(async () => {
  h = await startToolHarness({ files: ['google_forms'] });
  forms = registerFormsRoutes(h.api);
  c = googleToolChecks(h, 'Forms', 'forms.googleapis.com');
});
beforeEach(() => h.api.clearRequests());
afterAll(async () => {
  expect(h.api.unmatched).toEqual([]);
  await h.close();
});

/** The one GET of the call, checked for its path (host and bearer token too). */
function onlyGet(path: string) {
  expect(c.sent()).toEqual([`GET ${path}`]);
  return c.request(0);
}

describe('J8 google_forms', () => {
  it('forms_get: GET /v1/forms/{id} → every item summarised with its question kind', async () => {
    const form = c.ok(await h.call('forms_get', { form_id: forms.seeded.survey }));
    onlyGet(`/v1/forms/${forms.seeded.survey}`);
    expect(form).toMatchObject({
      formId: forms.seeded.survey,
      title: 'Team survey 2025',
      documentTitle: 'Team survey (responses)',
      description: 'Five minutes, anonymous to the team.',
      responderUri: 'https://docs.google.com/forms/d/e/1FAIpQLSfTeamSurveyFakeForm/viewform',
      linkedSheetId: '1LinkedSheetFakeId',
      itemCount: 12,
    });
    const byTitle = Object.fromEntries(form.items.map((item: { title: string }) => [item.title, item]));
    expect(byTitle['Your name']).toEqual({ itemId: '00000001', title: 'Your name', kind: 'QUESTION', questionId: '1a2b3c4d', type: 'TEXT', required: true, paragraph: false });
    expect(byTitle['Favourite colours']).toEqual({
      itemId: '00000003',
      title: 'Favourite colours',
      description: 'Pick any',
      kind: 'QUESTION',
      questionId: '3c4d5e6f',
      type: 'CHOICE',
      required: false,
      choiceType: 'CHECKBOX',
      options: ['Red', 'Blue', 'Other (free text)'],
    });
    expect(byTitle['How satisfied are you?']).toMatchObject({ type: 'SCALE', low: 1, high: 5, lowLabel: 'Not at all', highLabel: 'Very' });
    expect(byTitle['Start date']).toMatchObject({ type: 'DATE', includeYear: true, includeTime: false });
    expect(byTitle['Hours per week']).toMatchObject({ type: 'TIME', duration: true });
    expect(byTitle['Upload your CV']).toMatchObject({ type: 'FILE_UPLOAD', maxFiles: 1, fileTypes: ['PDF', 'DOCUMENT'] });
    expect(byTitle['Rate us']).toMatchObject({ kind: 'QUESTION', type: 'UNKNOWN', questionId: '92a3b4c5' });
    expect(byTitle['Rate our service']).toEqual({
      itemId: '0000000b',
      title: 'Rate our service',
      kind: 'QUESTION_GROUP',
      choiceType: 'RADIO',
      columns: ['Poor', 'Good', 'Great'],
      questions: [
        { questionId: 'a3b4c5d6', type: 'ROW', title: 'Speed', required: true },
        { questionId: 'b4c5d6e7', type: 'ROW', title: 'Quality', required: false },
      ],
    });
    expect(byTitle['Details']).toEqual({ itemId: '00000005', title: 'Details', kind: 'PAGE_BREAK' });
    expect(byTitle['Thank you!']).toMatchObject({ kind: 'TEXT', description: 'We read every answer.' });

    const empty = c.ok(await h.call('forms_get', { form_id: forms.seeded.empty }));
    expect(empty).toMatchObject({ title: 'Empty form', itemCount: 0, items: [] });
    c.apiError(await h.call('forms_get', { form_id: 'no-such-form' }), 404);
    c.invalid(await h.call('forms_get', {}));
  });

  it('forms_list_responses: pageSize and pageToken, answers keyed by question id, file uploads kept', async () => {
    const first = c.ok(await h.call('forms_list_responses', { form_id: forms.seeded.survey, page_size: 2 }));
    const req = onlyGet(`/v1/forms/${forms.seeded.survey}/responses`);
    expect(req.query.get('pageSize')).toBe('2');
    expect(req.query.has('pageToken')).toBe(false);
    expect(first.responses.map((r: { responseId: string }) => r.responseId)).toEqual(forms.seeded.surveyResponses.slice(0, 2));
    expect(first.responses[0]).toEqual({
      responseId: 'ACYDBNhFakeResponse0001',
      createTime: '2025-02-10T10:00:00.000Z',
      lastSubmittedTime: '2025-02-10T10:00:00.000Z',
      respondentEmail: 'ana@example.com',
      answers: {
        '1a2b3c4d': ['Ana'],
        '2b3c4d5e': ['Engineer'],
        '3c4d5e6f': ['Red', 'Teal'],
        '5e6f7081': ['4'],
        '6f708192': ['2025-03-01'],
        a3b4c5d6: ['Great'],
        b4c5d6e7: ['Good'],
        '8192a3b4': [{ fileId: '1AnaCvFakeFileId', fileName: 'Ana CV.pdf', mimeType: 'application/pdf' }],
      },
    });
    expect(typeof first.nextPageToken).toBe('string');

    h.api.clearRequests();
    const second = c.ok(await h.call('forms_list_responses', { form_id: forms.seeded.survey, page_size: 2, page_token: first.nextPageToken }));
    expect(onlyGet(`/v1/forms/${forms.seeded.survey}/responses`).query.get('pageToken')).toBe(first.nextPageToken);
    expect(second.responses.map((r: { responseId: string }) => r.responseId)).toEqual([forms.seeded.surveyResponses[2]]);
    expect(second.nextPageToken).toBeUndefined();

    h.api.clearRequests();
    const all = c.ok(await h.call('forms_list_responses', { form_id: forms.seeded.survey }));
    expect(onlyGet(`/v1/forms/${forms.seeded.survey}/responses`).query.has('pageSize')).toBe(false);
    expect(all.responses).toHaveLength(3);
  });

  it('forms_list_responses: a form without responses, a foreign page token, an unknown form, a bad page size', async () => {
    expect(c.ok(await h.call('forms_list_responses', { form_id: forms.seeded.empty }))).toEqual({ formId: forms.seeded.empty, responses: [] });
    const page = c.ok(await h.call('forms_list_responses', { form_id: forms.seeded.survey, page_size: 1 }));
    c.apiError(await h.call('forms_list_responses', { form_id: forms.seeded.empty, page_token: page.nextPageToken }), 400);
    c.apiError(await h.call('forms_list_responses', { form_id: 'no-such-form' }), 404);
    c.invalid(await h.call('forms_list_responses', { form_id: forms.seeded.survey, page_size: 0 }));
    c.invalid(await h.call('forms_list_responses', {}));
  });

  it('forms_get_response: GET /v1/forms/{id}/responses/{responseId}; unknown ids are 404', async () => {
    const response = c.ok(await h.call('forms_get_response', { form_id: forms.seeded.survey, response_id: 'ACYDBNhFakeResponse0002' }));
    onlyGet(`/v1/forms/${forms.seeded.survey}/responses/ACYDBNhFakeResponse0002`);
    expect(response).toEqual({
      responseId: 'ACYDBNhFakeResponse0002',
      createTime: '2025-02-11T08:30:00.000Z',
      lastSubmittedTime: '2025-02-12T09:15:00.000Z',
      respondentEmail: 'ben@example.com',
      answers: { '1a2b3c4d': ['Ben'], '2b3c4d5e': ['Designer'], '5e6f7081': ['2'], '4d5e6f70': ['More coffee, please.'], '708192a3': ['12:30:00'] },
    });
    c.apiError(await h.call('forms_get_response', { form_id: forms.seeded.survey, response_id: 'nope' }), 404);
    c.apiError(await h.call('forms_get_response', { form_id: 'nope', response_id: 'ACYDBNhFakeResponse0002' }), 404);
    c.invalid(await h.call('forms_get_response', { form_id: forms.seeded.survey }));
  });
});
