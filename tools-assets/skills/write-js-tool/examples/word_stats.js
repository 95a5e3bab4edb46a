function execute(params) {
  var text = params.text;
  if (text === undefined && params.path !== undefined) text = fs.readFile(params.path);
  if (typeof text !== 'string') throw new Error('Give text, or the path of a text file in the files folder.');

  var words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) || [];
  var counts = {};
  for (var i = 0; i < words.length; i++) counts[words[i]] = (counts[words[i]] || 0) + 1;
  var top = Object.keys(counts)
    .sort(function (a, b) { return counts[b] - counts[a] || (a < b ? -1 : 1); })
    .slice(0, params.top || 10)
    .map(function (w) { return { word: w, count: counts[w] }; });

  return { words: words.length, lines: text === '' ? 0 : text.split('\n').length, top: top };
}
