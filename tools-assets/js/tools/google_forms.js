// Google Forms API v1 (read-only): https://developers.google.com/forms/api/reference/rest
var google_api = lib('google_api');

var BASE = 'https://forms.googleapis.com/v1';

function _formUrl(formId) {
  return BASE + '/forms/' + encodeURIComponent(formId);
}

function _forms(url, query) {
  return google_api.request('Forms', 'GET', url, { query: query });
}

/** One question: its id, kind (CHOICE/TEXT/SCALE/DATE/TIME/FILE_UPLOAD/ROW/UNKNOWN) and the details that define it. */
function _question(question) {
  var out = { questionId: question.questionId, type: 'UNKNOWN', required: question.required === true };
  if (question.choiceQuestion) {
    out.type = 'CHOICE';
    out.choiceType = question.choiceQuestion.type;
    out.options = (question.choiceQuestion.options || []).map(function (option) {
      return option.isOther ? 'Other (free text)' : option.value;
    });
  } else if (question.textQuestion) {
    out.type = 'TEXT';
    out.paragraph = question.textQuestion.paragraph === true;
  } else if (question.scaleQuestion) {
    var scale = question.scaleQuestion;
    out.type = 'SCALE';
    out.low = scale.low === undefined ? 0 : scale.low;
    out.high = scale.high;
    if (scale.lowLabel) out.lowLabel = scale.lowLabel;
    if (scale.highLabel) out.highLabel = scale.highLabel;
  } else if (question.dateQuestion) {
    out.type = 'DATE';
    out.includeTime = question.dateQuestion.includeTime === true;
    out.includeYear = question.dateQuestion.includeYear === true;
  } else if (question.timeQuestion) {
    out.type = 'TIME';
    out.duration = question.timeQuestion.duration === true;
  } else if (question.fileUploadQuestion) {
    out.type = 'FILE_UPLOAD';
    out.maxFiles = question.fileUploadQuestion.maxFiles;
    if (question.fileUploadQuestion.types) out.fileTypes = question.fileUploadQuestion.types;
  } else if (question.rowQuestion) {
    out.type = 'ROW';
    out.title = question.rowQuestion.title;
  }
  return out;
}

function _item(item) {
  var out = { itemId: item.itemId, title: item.title || '' };
  if (item.description) out.description = item.description;
  if (item.questionItem) {
    out.kind = 'QUESTION';
    var question = _question(item.questionItem.question || {});
    for (var key in question) out[key] = question[key];
  } else if (item.questionGroupItem) {
    var group = item.questionGroupItem;
    out.kind = 'QUESTION_GROUP';
    if (group.grid && group.grid.columns) {
      out.choiceType = group.grid.columns.type;
      out.columns = (group.grid.columns.options || []).map(function (option) {
        return option.value;
      });
    }
    out.questions = (group.questions || []).map(_question);
  } else if (item.pageBreakItem) {
    out.kind = 'PAGE_BREAK';
  } else if (item.textItem) {
    out.kind = 'TEXT';
  } else if (item.imageItem) {
    out.kind = 'IMAGE';
  } else if (item.videoItem) {
    out.kind = 'VIDEO';
  } else {
    out.kind = 'UNKNOWN';
  }
  return out;
}

/** A response with its answers as questionId -> list of values (file uploads as {fileId, fileName, mimeType}). */
function _response(response) {
  var answers = {};
  var grades = {};
  var graded = false;
  var given = response.answers || {};
  for (var questionId in given) {
    var answer = given[questionId];
    var values = [];
    ((answer.textAnswers || {}).answers || []).forEach(function (text) {
      values.push(text.value);
    });
    ((answer.fileUploadAnswers || {}).answers || []).forEach(function (file) {
      values.push({ fileId: file.fileId, fileName: file.fileName, mimeType: file.mimeType });
    });
    answers[questionId] = values;
    if (answer.grade) {
      graded = true;
      grades[questionId] = answer.grade;
    }
  }
  var out = { responseId: response.responseId, createTime: response.createTime, lastSubmittedTime: response.lastSubmittedTime };
  if (response.respondentEmail) out.respondentEmail = response.respondentEmail;
  if (response.totalScore !== undefined) out.totalScore = response.totalScore;
  out.answers = answers;
  if (graded) out.grades = grades;
  return out;
}

async function formsGet(params) {
  var form = await _forms(_formUrl(params.form_id));
  var info = form.info || {};
  var items = (form.items || []).map(_item);
  var out = { formId: form.formId, title: info.title || '', documentTitle: info.documentTitle };
  if (info.description) out.description = info.description;
  out.responderUri = form.responderUri;
  if (form.linkedSheetId) out.linkedSheetId = form.linkedSheetId;
  out.itemCount = items.length;
  out.items = items;
  return out;
}

async function formsListResponses(params) {
  var result = await _forms(_formUrl(params.form_id) + '/responses', { pageSize: params.page_size, pageToken: params.page_token });
  var out = { formId: params.form_id, responses: (result.responses || []).map(_response) };
  if (result.nextPageToken) out.nextPageToken = result.nextPageToken;
  return out;
}

async function formsGetResponse(params) {
  var response = await _forms(_formUrl(params.form_id) + '/responses/' + encodeURIComponent(params.response_id));
  return _response(response);
}
