// Google Slides API v1: https://developers.google.com/slides/api/reference/rest
var google_api = lib('google_api');

var BASE = 'https://slides.googleapis.com/v1/presentations';
var API = 'Slides';
var EMU_PER_POINT = 12700;

function _presentationUrl(presentationId) {
  return BASE + '/' + encodeURIComponent(presentationId);
}

function _editUrl(presentationId) {
  return 'https://docs.google.com/presentation/d/' + presentationId + '/edit';
}

function _batchUpdate(presentationId, requests) {
  return google_api.request(API, 'POST', _presentationUrl(presentationId) + ':batchUpdate', { body: { requests: requests } });
}

/** The plain text of a TextContent (runs and auto text such as slide numbers), without the final newline. */
function _plainText(text) {
  var out = '';
  var elements = (text && text.textElements) || [];
  for (var i = 0; i < elements.length; i++) {
    var element = elements[i];
    if (element.textRun) out += element.textRun.content || '';
    else if (element.autoText) out += element.autoText.content || '';
  }
  return out.replace(/\n$/, '');
}

function _elementType(element) {
  var kinds = ['shape', 'image', 'table', 'line', 'video', 'sheetsChart', 'wordArt', 'speakerSpotlight'];
  for (var i = 0; i < kinds.length; i++) if (element[kinds[i]]) return kinds[i];
  return element.elementGroup ? 'group' : 'unknown';
}

function _tableRows(table) {
  return (table.tableRows || []).map(function (row) {
    return (row.tableCells || []).map(function (cell) {
      return _plainText(cell.text);
    });
  });
}

/** Page elements flattened out of groups, in drawing order. */
function _flatten(elements, out) {
  out = out || [];
  (elements || []).forEach(function (element) {
    out.push(element);
    if (element.elementGroup) _flatten(element.elementGroup.children, out);
  });
  return out;
}

function _elementSummary(element) {
  var summary = { objectId: element.objectId, type: _elementType(element) };
  if (element.shape) {
    summary.shapeType = element.shape.shapeType;
    if (element.shape.placeholder) summary.placeholder = element.shape.placeholder.type;
    var text = _plainText(element.shape.text);
    if (text) summary.text = text;
  } else if (element.table) {
    summary.rows = element.table.rows;
    summary.columns = element.table.columns;
  } else if (element.elementGroup) {
    summary.children = (element.elementGroup.children || []).map(function (child) {
      return child.objectId;
    });
  }
  return summary;
}

function _slideSummary(slide, index) {
  return {
    objectId: slide.objectId,
    index: index,
    layoutObjectId: slide.slideProperties && slide.slideProperties.layoutObjectId,
    elements: _flatten(slide.pageElements).map(_elementSummary),
  };
}

function _points(dimension) {
  if (!dimension) return undefined;
  return dimension.unit === 'PT' ? dimension.magnitude : Math.round(((dimension.magnitude || 0) / EMU_PER_POINT) * 100) / 100;
}

async function slidesGet(params) {
  var deck = await google_api.request(API, 'GET', _presentationUrl(params.presentation_id));
  var size = deck.pageSize || {};
  return {
    presentationId: deck.presentationId,
    title: deck.title,
    locale: deck.locale,
    url: _editUrl(deck.presentationId),
    revisionId: deck.revisionId,
    pageSizePoints: { width: _points(size.width), height: _points(size.height) },
    slideCount: (deck.slides || []).length,
    slides: (deck.slides || []).map(_slideSummary),
    layouts: (deck.layouts || []).map(function (layout) {
      var props = layout.layoutProperties || {};
      return { objectId: layout.objectId, name: props.name, displayName: props.displayName };
    }),
  };
}

async function slidesCreate(params) {
  var deck = await google_api.request(API, 'POST', BASE, { body: { title: params.title } });
  return {
    presentationId: deck.presentationId,
    title: deck.title,
    url: _editUrl(deck.presentationId),
    slides: (deck.slides || []).map(_slideSummary),
  };
}

async function slidesAddSlide(params) {
  var layout = params.layout || 'TITLE_AND_BODY';
  var createSlide = { slideLayoutReference: { predefinedLayout: layout } };
  if (params.insertion_index !== undefined && params.insertion_index !== null) createSlide.insertionIndex = params.insertion_index;
  var answer = await _batchUpdate(params.presentation_id, [{ createSlide: createSlide }]);
  var reply = (answer.replies && answer.replies[0] && answer.replies[0].createSlide) || {};
  var result = { presentationId: answer.presentationId, slideId: reply.objectId, layout: layout };
  if (createSlide.insertionIndex !== undefined) result.insertionIndex = createSlide.insertionIndex;
  return result;
}

async function slidesGetText(params) {
  var deck = await google_api.request(API, 'GET', _presentationUrl(params.presentation_id), {
    query: { fields: 'presentationId,title,slides(objectId,pageElements)' },
  });
  return {
    presentationId: deck.presentationId,
    title: deck.title,
    slides: (deck.slides || []).map(function (slide, index) {
      var texts = [];
      _flatten(slide.pageElements).forEach(function (element) {
        if (element.shape) {
          var text = _plainText(element.shape.text);
          if (!text) return;
          var entry = { objectId: element.objectId, text: text };
          if (element.shape.placeholder) entry.placeholder = element.shape.placeholder.type;
          texts.push(entry);
        } else if (element.table) {
          texts.push({ objectId: element.objectId, table: _tableRows(element.table) });
        }
      });
      return { slideId: slide.objectId, index: index, texts: texts };
    }),
  };
}

async function slidesBatchUpdate(params) {
  var answer = await _batchUpdate(params.presentation_id, params.requests);
  return { presentationId: answer.presentationId, replies: answer.replies || [] };
}

async function slidesDeleteSlide(params) {
  var answer = await _batchUpdate(params.presentation_id, [{ deleteObject: { objectId: params.slide_id } }]);
  return { success: true, presentationId: answer.presentationId, deletedSlideId: params.slide_id };
}

async function slidesListSlides(params) {
  var deck = await google_api.request(API, 'GET', _presentationUrl(params.presentation_id), {
    query: { fields: 'slides(objectId,slideProperties(layoutObjectId),pageElements(objectId))' },
  });
  return (deck.slides || []).map(function (slide, index) {
    return {
      objectId: slide.objectId,
      index: index,
      layoutObjectId: slide.slideProperties && slide.slideProperties.layoutObjectId,
      pageElementCount: (slide.pageElements || []).length,
    };
  });
}
