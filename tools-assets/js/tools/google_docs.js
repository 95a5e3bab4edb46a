// Google Docs API v1: https://developers.google.com/docs/api/reference/rest
var google_api = lib('google_api');

var BASE = 'https://docs.googleapis.com/v1';

function _documentUrl(documentId) {
  return BASE + '/documents/' + encodeURIComponent(documentId);
}

function _getDocument(documentId) {
  return google_api.request('Docs', 'GET', _documentUrl(documentId));
}

async function _batchUpdate(documentId, requests) {
  var result = await google_api.request('Docs', 'POST', _documentUrl(documentId) + ':batchUpdate', { body: { requests: requests } });
  return { documentId: result.documentId, replies: result.replies || [], revisionId: (result.writeControl || {}).requiredRevisionId };
}

/** The text of structural elements: paragraphs' text runs, table cells and tables of contents, in order. */
function _text(content) {
  var out = '';
  (content || []).forEach(function (element) {
    if (element.paragraph) {
      (element.paragraph.elements || []).forEach(function (part) {
        if (part.textRun) out += part.textRun.content;
      });
    } else if (element.table) {
      (element.table.tableRows || []).forEach(function (row) {
        (row.tableCells || []).forEach(function (cell) {
          out += _text(cell.content);
        });
      });
    } else if (element.tableOfContents) {
      out += _text(element.tableOfContents.content);
    }
  });
  return out;
}

function _bodyContent(doc) {
  return (doc.body && doc.body.content) || [];
}

/** Where appended text goes: before the newline that ends the body. */
function _endIndex(doc) {
  var content = _bodyContent(doc);
  var last = content[content.length - 1];
  return last && last.endIndex ? last.endIndex - 1 : 1;
}

async function _insertAt(documentId, index, text) {
  var result = await _batchUpdate(documentId, [{ insertText: { location: { index: index }, text: text } }]);
  return { documentId: result.documentId, index: index, insertedLength: text.length, revisionId: result.revisionId };
}

async function docsGet(params) {
  var doc = await _getDocument(params.document_id);
  var content = [];
  _bodyContent(doc).forEach(function (element) {
    if (element.paragraph) {
      content.push({
        type: 'paragraph',
        startIndex: element.startIndex,
        endIndex: element.endIndex,
        style: (element.paragraph.paragraphStyle || {}).namedStyleType,
        text: _text([element])
      });
    } else if (element.table) {
      content.push({
        type: 'table',
        startIndex: element.startIndex,
        endIndex: element.endIndex,
        rows: element.table.rows,
        columns: element.table.columns,
        cells: (element.table.tableRows || []).map(function (row) {
          return (row.tableCells || []).map(function (cell) {
            return _text(cell.content);
          });
        })
      });
    } else if (element.tableOfContents) {
      content.push({ type: 'tableOfContents', startIndex: element.startIndex, endIndex: element.endIndex, text: _text([element]) });
    }
  });
  return { documentId: doc.documentId, title: doc.title, revisionId: doc.revisionId, endIndex: _endIndex(doc) + 1, content: content };
}

async function docsCreate(params) {
  var doc = await google_api.request('Docs', 'POST', BASE + '/documents', { body: { title: params.title } });
  return {
    documentId: doc.documentId,
    title: doc.title,
    revisionId: doc.revisionId,
    url: 'https://docs.google.com/document/d/' + doc.documentId + '/edit'
  };
}

async function docsInsertText(params) {
  return _insertAt(params.document_id, params.index === undefined ? 1 : params.index, params.text);
}

async function docsAppendText(params) {
  var doc = await _getDocument(params.document_id);
  return _insertAt(params.document_id, _endIndex(doc), params.text);
}

async function docsGetText(params) {
  var doc = await _getDocument(params.document_id);
  return { documentId: doc.documentId, title: doc.title, text: _text(_bodyContent(doc)) };
}

async function docsBatchUpdate(params) {
  return _batchUpdate(params.document_id, params.requests);
}

async function docsDeleteRange(params) {
  var range = { startIndex: params.start_index, endIndex: params.end_index };
  var result = await _batchUpdate(params.document_id, [{ deleteContentRange: { range: range } }]);
  return { documentId: result.documentId, deleted: range, revisionId: result.revisionId };
}

async function docsFindReplace(params) {
  var result = await _batchUpdate(params.document_id, [
    { replaceAllText: { containsText: { text: params.find_text, matchCase: params.match_case === true }, replaceText: params.replace_text } }
  ]);
  var reply = (result.replies[0] || {}).replaceAllText || {};
  // The API leaves out a zero count.
  return { documentId: result.documentId, occurrencesChanged: reply.occurrencesChanged || 0, revisionId: result.revisionId };
}
