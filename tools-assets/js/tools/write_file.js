function execute(params) {
  var mode = params.mode || 'overwrite';
  if (mode === 'append') fs.appendFile(params.path, params.content);
  else fs.writeFile(params.path, params.content);
  return 'Wrote ' + params.content.length + ' characters to ' + params.path + ' (' + mode + ').';
}
