function execute(params) {
  return fs.readFile(params.path, params.encoding || 'utf8');
}
