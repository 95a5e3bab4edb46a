// Real PDFs made by pdfkit (a dev dependency: this entry point is for the workspace's tests), and
// one-page PDFs written by hand for page boxes pdfkit will not write.
export { writeBoxPdf, writeTestPdf, type TestPdf } from './test-pdfs';
