import { useId, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { Button } from '../../components/Button.tsx';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { parseVariables } from '../../shared-contactList/preferences.ts';

/** Drop a CSV or .xlsx workbook or pick one; the default country and the agent's prompt variables go with it. */
export function ImportStart() {
  const importFile = useContacts((s) => s.importFile);
  const variables = useContacts((s) => s.variables);
  const setVariables = useContacts((s) => s.setVariables);
  const country = useContacts((s) => s.country);
  const setCountry = useContacts((s) => s.setCountry);
  const [variablesText, setVariablesText] = useState(variables.join(', '));
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();

  const start = (file: File | undefined) => {
    if (!file) return;
    setVariables(parseVariables(variablesText));
    importFile(file);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    start(event.dataTransfer.files[0]);
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        Import a contact list
      </h2>
      <div className="import-options">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-country`}>
            Default country
          </label>
          <input
            id={`${id}-country`}
            className="input input-short"
            value={country}
            onChange={(e) => setCountry(e.target.value)}
            aria-describedby={`${id}-country-hint`}
            autoComplete="off"
            spellCheck={false}
          />
          <p className="field-hint" id={`${id}-country-hint`}>
            For numbers written without a country code: an ISO code such as IN or a prefix such as +91.
          </p>
        </div>
        <div className="field field-grow">
          <label className="field-label" htmlFor={`${id}-variables`}>
            Prompt variables <span className="field-optional">(optional)</span>
          </label>
          <input
            id={`${id}-variables`}
            className="input"
            value={variablesText}
            onChange={(e) => setVariablesText(e.target.value)}
            onBlur={() => setVariables(parseVariables(variablesText))}
            placeholder="name, loan_amount, due_date"
            aria-describedby={`${id}-variables-hint`}
            spellCheck={false}
          />
          <p className="field-hint" id={`${id}-variables-hint`}>
            The agent&apos;s variables, separated by commas. Each is matched to the column with the same name;
            you can change the match after the file is read.
          </p>
        </div>
      </div>
      <div
        className={['drop-zone', dragging ? 'drop-zone-active' : ''].filter(Boolean).join(' ')}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p className="drop-zone-title">Drop a CSV file or an Excel workbook (.xlsx) here</p>
        <p className="muted">
          Any size: it is read in the background on this computer. Encoding, delimiter, sheet and phone column
          are detected.
        </p>
        <input
          ref={inputRef}
          id={`${id}-file`}
          type="file"
          accept=".csv,.txt,.tsv,.xlsx,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          className="visually-hidden"
          aria-label="Choose a CSV file or Excel workbook"
          onChange={(e) => {
            start(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <Button variant="primary" onClick={() => inputRef.current?.click()}>
          Choose a CSV or Excel file…
        </Button>
      </div>
    </section>
  );
}
