// The check page's script: the form follows the chosen checker; sending it checks what was given (a problem
// found before sending is said at once) and shows the progress, then the result or why there is none.
import { submissionProblem } from '../../lib/checkers.ts';
import { chosenChecker, form, offerInputs, showInputs, submission } from './form.ts';
import { hideError, showError, startProgress } from './progress.ts';
import { clearResult } from './result.ts';
import { check } from './send.ts';

const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
offerInputs();
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const checker = chosenChecker();
  const given = submission(checker);
  hideError();
  const problem = submissionProblem(checker, given);
  if (problem !== null) { showError(problem); return; }
  clearResult();
  startProgress();
  submit.disabled = true;
  check(checker, given)
    .catch((error: unknown) => showError(`The check could not be completed: ${error instanceof Error ? error.message : String(error)}. Try again.`))
    .finally(() => { submit.disabled = false; });
});
showInputs();
