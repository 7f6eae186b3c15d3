import { createLogUpdate } from 'log-update';
import type { CrawlProgress } from './crawl/result.ts';

export interface ProgressReporter {
  stage(name: string): void;
  sourceStarted(id: string): void;
  sourceProgress(id: string, progress: CrawlProgress): void;
  sourceFinished(id: string, outcome: string): void;
  done(): void;
}

/** One live line per source in a terminal; plain log lines when output is a file or a pipe (cron, CI). */
export function progressReporter(stream: NodeJS.WriteStream = process.stdout): ProgressReporter {
  return stream.isTTY ? new LiveProgress(stream) : new PlainProgress(stream);
}

class PlainProgress implements ProgressReporter {
  private readonly stream: NodeJS.WritableStream;
  constructor(stream: NodeJS.WritableStream) {
    this.stream = stream;
  }
  stage(name: string) {
    this.stream.write(`[nightly] ${name}\n`);
  }
  sourceStarted(id: string) {
    this.stream.write(`[crawl] ${id}: started\n`);
  }
  sourceProgress() {
    // Plain output reports each source once it finishes; per-page lines would swamp a cron log.
  }
  sourceFinished(id: string, outcome: string) {
    this.stream.write(`[crawl] ${id}: ${outcome}\n`);
  }
  done() {}
}

class LiveProgress implements ProgressReporter {
  private readonly lines = new Map<string, string>();
  private readonly render: ReturnType<typeof createLogUpdate>;
  private readonly stream: NodeJS.WriteStream;
  private currentStage = '';

  constructor(stream: NodeJS.WriteStream) {
    this.stream = stream;
    this.render = createLogUpdate(stream);
  }
  stage(name: string) {
    this.currentStage = name;
    this.draw();
  }
  sourceStarted(id: string) {
    this.lines.set(id, 'starting…');
    this.draw();
  }
  sourceProgress(id: string, progress: CrawlProgress) {
    this.lines.set(id, `${progress.pages} pages · ${progress.records} records · ${progress.errors} errors`);
    this.draw();
  }
  sourceFinished(id: string, outcome: string) {
    this.lines.set(id, outcome);
    this.draw();
  }
  done() {
    this.draw();
    this.render.done();
    this.stream.write('\n');
  }
  private draw() {
    const width = Math.max(0, ...[...this.lines.keys()].map((id) => id.length));
    const body = [...this.lines].map(([id, line]) => `  ${id.padEnd(width)}  ${line}`);
    this.render([`nightly: ${this.currentStage}`, ...body].join('\n'));
  }
}
