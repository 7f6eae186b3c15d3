// The check form: the inputs and option of the chosen checker, the chosen files' names (picked or dropped),
// and what the reader gave, as the checker is sent it.
import { checkerById, CHECKERS, type Checker, type InputKind, type Submission } from '../../lib/checkers.ts';
import { element } from '../../lib/dom.ts';

export const form = document.querySelector<HTMLFormElement>('[data-check-form]')!;
const checkerSelect = form.querySelector<HTMLSelectElement>('#checker')!;
const about = document.getElementById('checker-about')!;
const kinds = form.querySelector<HTMLFieldSetElement>('[data-input-kinds]')!;
const fileInput = form.querySelector<HTMLInputElement>('#file')!;
const drop = form.querySelector<HTMLElement>('[data-drop]')!;
const fileHint = form.querySelector<HTMLElement>('[data-file-hint]')!;
const fileNames = form.querySelector<HTMLElement>('[data-file-names]')!;
const optionBox = form.querySelector<HTMLElement>('[data-option]')!;
const optionSelect = form.querySelector<HTMLSelectElement>('#option')!;

export const chosenChecker = (): Checker => checkerById(checkerSelect.value) ?? CHECKERS[0]!;
const chosenInput = (checker: Checker): InputKind => {
  const picked = form.querySelector<HTMLInputElement>('input[name="input"]:checked')?.value as InputKind | undefined;
  return picked && checker.inputs.includes(picked) ? picked : checker.inputs[0]!;
};

/** Shows the inputs the chosen checker takes, and its option. */
export function showInputs(): void {
  const checker = chosenChecker();
  about.textContent = checker.about;
  kinds.hidden = checker.inputs.length < 2;
  for (const radio of kinds.querySelectorAll<HTMLInputElement>('input[name="input"]')) {
    radio.closest('label')!.hidden = !checker.inputs.includes(radio.value as InputKind);
  }
  const input = chosenInput(checker);
  const radio = kinds.querySelector<HTMLInputElement>(`input[value="${input}"]`);
  if (radio) radio.checked = true;
  for (const box of form.querySelectorAll<HTMLElement>('[data-input]')) box.hidden = box.dataset['input'] !== input;
  fileInput.accept = checker.accept ?? '';
  fileInput.multiple = (checker.maxFiles ?? 1) > 1;
  fileHint.textContent = `${(checker.accept ?? '').split(',').map((type) => type.slice(1).toUpperCase()).join(', ')}; up to 25 MB${fileInput.multiple ? ` each, up to ${checker.maxFiles} files` : ''}.`;
  optionBox.hidden = checker.option === undefined;
  if (checker.option) {
    form.querySelector('[data-option-label]')!.textContent = checker.option.label;
    optionSelect.replaceChildren(...checker.option.choices.map((choice) => {
      const option = element('option', choice.label);
      option.value = choice.value;
      return option;
    }));
  }
}

function showFileNames(): void {
  const files = [...(fileInput.files ?? [])];
  fileNames.textContent = files.length === 0 ? '' : `Chosen: ${files.map((file) => file.name).join(', ')}`;
}

/** What the reader gave the chosen checker. */
export function submission(checker: Checker): Submission {
  const input = chosenInput(checker);
  const value = input === 'file' ? '' : form.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#${input}`)!.value.trim();
  const details = checker.id === 'adverse-media'
    ? { dob: form.querySelector<HTMLInputElement>('#dob')!.value.trim(), country: form.querySelector<HTMLInputElement>('#country')!.value.trim() }
    : undefined;
  return { input, files: [...(fileInput.files ?? [])], value, option: optionSelect.value, ...(details ? { details } : {}) };
}

/** The form follows the chosen checker and input kind, and takes files picked or dropped. */
export function offerInputs(): void {
  checkerSelect.addEventListener('change', showInputs);
  kinds.addEventListener('change', showInputs);
  fileInput.addEventListener('change', showFileNames);
  drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    if (event.dataTransfer?.files.length) {
      fileInput.files = event.dataTransfer.files;
      showFileNames();
    }
  });
}
