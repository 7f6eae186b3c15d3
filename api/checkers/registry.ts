import type { AnalysisLocation } from '../documents/pool.ts';

/**
 * The analyses the pool's threads run, by the name each checker route asks for (its MCP tool's name too).
 * Modules are loaded inside the threads, never by the API's main thread.
 */
export const checkerAnalyses: Readonly<Record<string, AnalysisLocation>> = {
  inspect_document: { moduleUrl: new URL('./warrants/analyse.ts', import.meta.url).href, exportName: 'analyseWarrant' },
  extract_document: { moduleUrl: new URL('./extract/analyse.ts', import.meta.url).href, exportName: 'analyseExtraction' },
  identity_check: { moduleUrl: new URL('./identity/analyse.ts', import.meta.url).href, exportName: 'analyseIdentity' },
  check_pack: { moduleUrl: new URL('./pack/analyse.ts', import.meta.url).href, exportName: 'analysePack' },
  read_text: { moduleUrl: new URL('./read-text.ts', import.meta.url).href, exportName: 'readText' },
  // A page of a bid file drawn as PNG (GET /v1/bids/{bid}/files/{file_id}/pages/{n}/image).
  render_page: { moduleUrl: new URL('../bids/render-page.ts', import.meta.url).href, exportName: 'renderPage' },
};
