// Real PDFs made by pdfkit (a dev dependency: this entry point is for the workspace's tests).
export { writeTestPdf, type TestPdf } from './test-pdfs';
