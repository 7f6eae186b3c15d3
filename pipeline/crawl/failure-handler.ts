import type { SourceContext } from '../../sources/_contract/define-source.ts';
import type { FailedRequest } from './crawler-factory.ts';
import { DownloadError } from './downloads.ts';
import { describeFailure } from './http.ts';
import type { CrawlTally } from './result.ts';

/**
 * Turns a request that failed its last attempt into one line naming the request and its attempts (a failed
 * download's own line names its file). A start request's failure fails the source; any other is a warning.
 */
export function sourceFailureHandler(options: { ctx: SourceContext; tally: CrawlTally; timeoutSecs: number }): (request: FailedRequest, error: Error) => void {
  const { ctx, tally, timeoutSecs } = options;
  return (request, error) => {
    const attempts = request.retryCount + 1;
    const line = error instanceof DownloadError
      ? error.message
      : `${describeFailure(error, timeoutSecs)} from ${request.method ?? 'GET'} ${ctx.publicUrl(request.url)} after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
    tally.failed(line, request.userData.crawl.start);
  };
}
