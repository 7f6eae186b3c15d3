/** Where warrants are made and read: the checker's POST, and each stored warrant's permalink below it. */
export const WARRANT_PATH = '/v1/warrants';

/** A stored warrant's permalink and its PDF scorecard's address, on the service's public origin. */
export function warrantLinks(publicUrl: string, warrantId: string): { permalink: string; report_pdf: string } {
  const permalink = `${publicUrl}${WARRANT_PATH}/${warrantId}`;
  return { permalink, report_pdf: `${permalink}/report.pdf` };
}
