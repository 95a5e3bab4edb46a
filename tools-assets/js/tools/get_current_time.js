function execute(params) {
  return _time(params.timezone, params.format);
}
