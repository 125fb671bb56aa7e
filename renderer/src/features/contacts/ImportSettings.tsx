import { useEffect, useId, useState } from 'react';
import { columnRef, duplicateColumns } from '../../../../shared/domain/contacts/columns.ts';
import { DELIMITERS, ENCODINGS } from '../../../../shared/domain/contacts/types.ts';
import type { Delimiter, Encoding } from '../../../../shared/domain/contacts/types.ts';
import type { Detected, ImportChoices, VariableMapping } from '../../../../shared/ipc/channels/contacts.ts';
import { useApp } from '../../app/appStore.ts';
import { Button } from '../../components/Button.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useAgents } from '../../shared-listAgent/agentsStore.ts';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { DELIMITER_LABELS, ENCODING_LABELS, SOURCE_LABELS } from './labels.ts';

/**
 * What the file turned out to be (encoding, delimiter, phone column), the default country and the
 * variables mapping. While this session still has the file, each can be changed: the import runs
 * again with the new setting.
 */
export function ImportSettings({
  detected,
  variables,
  editable,
  country,
}: {
  detected: Detected;
  variables: VariableMapping[];
  editable: boolean;
  country?: string;
}) {
  const source = useContacts((s) => s.source);
  const reimport = useContacts((s) => s.reimport);
  const id = useId();
  // A name the file repeats is chosen by position ("#3"): the engine refuses the ambiguous name.
  const repeated = duplicateColumns(detected.header);
  const columnOptions = detected.header.map((h, i) => {
    const ref = columnRef(detected.header, i);
    return (
      <option key={`${i}-${h}`} value={ref}>
        {h === '' ? `(column ${i + 1})` : ref === h ? h : `${h} (column ${i + 1})`}
      </option>
    );
  });
  const canChange = editable && source !== null;
  const choices: ImportChoices | null = source?.choices ?? null;
  const [countryText, setCountryText] = useState(choices?.country ?? country ?? '');
  const [newVariable, setNewVariable] = useState('');
  const activeWorkspace = useApp((s) => s.activeId);
  const agents = useAgents();
  const loadAgents = agents.load;
  const chosenAgent = source !== null && agents.chosen?.file === source.file ? agents.chosen.agentId : '';
  useEffect(() => {
    if (canChange) void loadAgents(activeWorkspace);
  }, [canChange, activeWorkspace, loadAgents]);

  const change = (patch: Partial<ImportChoices>) => reimport(patch);
  const setMapping = (next: VariableMapping[]) => change({ variables: next });
  // The agent's variables replace the list, unmapped: the import matches them to columns by name.
  const chooseAgent = (agentId: string) => {
    if (!source) return;
    agents.choose(source.file, agentId);
    const agent = agents.agents.find((a) => a.id === agentId);
    if (agent) setMapping(agent.variables.map((variable) => ({ variable, column: '', optional: false })));
  };

  return (
    <section className="import-settings" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="subsection-title">
        File settings
      </h3>
      {!canChange ? (
        <p className="muted">To change these, import the file again.</p>
      ) : (
        <p className="muted">Changing a setting imports the file again with it.</p>
      )}
      {repeated.length > 0 ? (
        <Notice tone="warning" title="Repeated column names" role="status">
          <p data-testid="duplicate-columns">
            {repeated.map((d) => `"${d.name}" is columns ${d.positions.join(' and ')}`).join('; ')}
            {'. Choose such a column by its position; the upload file names the later ones apart, e.g. '}
            {`"${repeated[0]?.name} #${repeated[0]?.positions[1]}".`}
          </p>
        </Notice>
      ) : null}
      {detected.encodingUncertain ? (
        <Notice tone="warning" title="Check the encoding before uploading" role="status">
          <p data-testid="encoding-uncertain">
            {`The file is not UTF-8 and its encoding is a guess: ${detected.encodingNote ?? 'no encoding could be recognised'}. `}
            {'Look at the names in the grid; if they are garbled, choose the encoding below.'}
          </p>
        </Notice>
      ) : null}
      {detected.headerNote ? (
        <Notice tone="info" title={`Header on row ${detected.headerRow}`} role="status">
          <p data-testid="header-note">{detected.headerNote}</p>
        </Notice>
      ) : null}
      <div className="settings-grid">
        {detected.sheets ? (
          <div className="field">
            <label className="field-label" htmlFor={`${id}-sheet`}>
              Sheet
            </label>
            <select
              id={`${id}-sheet`}
              className="select"
              value={detected.sheet}
              disabled={!canChange}
              // Another sheet has other columns: the phone column and the mapping are found again.
              onChange={(e) =>
                change({
                  sheet: e.target.value,
                  phoneColumn: undefined,
                  variables: variables.map((v) => ({ ...v, column: '' })),
                })
              }
              aria-describedby={`${id}-sheet-hint`}
            >
              {detected.sheets.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.phoneColumn ? s.name : `${s.name} (no phone column)`}
                </option>
              ))}
            </select>
            <p className="field-hint" id={`${id}-sheet-hint`}>
              {choices?.sheet ? SOURCE_LABELS.override : 'First sheet with a phone column'}
            </p>
          </div>
        ) : null}
        {detected.sheets ? null : (
          <>
            <div className="field">
              <label className="field-label" htmlFor={`${id}-encoding`}>
                Encoding
              </label>
              <select
                id={`${id}-encoding`}
                className="select"
                value={detected.encoding}
                disabled={!canChange}
                onChange={(e) => change({ encoding: e.target.value as Encoding })}
                aria-describedby={`${id}-encoding-hint`}
              >
                {ENCODINGS.map((e) => (
                  <option key={e} value={e}>
                    {ENCODING_LABELS[e]}
                  </option>
                ))}
              </select>
              <p className="field-hint" id={`${id}-encoding-hint`}>
                {SOURCE_LABELS[detected.encodingSource]}
                {detected.encodingNote ? ` — ${detected.encodingNote}` : ''}
              </p>
            </div>
            <div className="field">
              <label className="field-label" htmlFor={`${id}-delimiter`}>
                Delimiter
              </label>
              <select
                id={`${id}-delimiter`}
                className="select"
                value={detected.delimiter}
                disabled={!canChange}
                onChange={(e) => change({ delimiter: e.target.value as Delimiter })}
                aria-describedby={`${id}-delimiter-hint`}
              >
                {DELIMITERS.map((d) => (
                  <option key={d} value={d}>
                    {DELIMITER_LABELS[d]}
                  </option>
                ))}
              </select>
              <p className="field-hint" id={`${id}-delimiter-hint`}>
                {SOURCE_LABELS[detected.delimiterSource]}
              </p>
            </div>
          </>
        )}
        <div className="field">
          <label className="field-label" htmlFor={`${id}-phone`}>
            Phone column
          </label>
          <select
            id={`${id}-phone`}
            className="select"
            value={
              choices?.phoneColumn ??
              (repeated.length > 0 && detected.header.includes(detected.phoneColumn)
                ? columnRef(detected.header, detected.header.indexOf(detected.phoneColumn))
                : detected.phoneColumn)
            }
            disabled={!canChange}
            onChange={(e) => change({ phoneColumn: e.target.value })}
            aria-describedby={`${id}-phone-hint`}
          >
            {columnOptions}
          </select>
          <p className="field-hint" id={`${id}-phone-hint`}>
            {choices?.phoneColumn ? SOURCE_LABELS.override : SOURCE_LABELS.detected}
          </p>
        </div>
        <form
          className="field"
          onSubmit={(e) => {
            e.preventDefault();
            if (countryText.trim() && countryText.trim() !== choices?.country)
              change({ country: countryText.trim() });
          }}
        >
          <label className="field-label" htmlFor={`${id}-country`}>
            Default country
          </label>
          <div className="inline-controls">
            <input
              id={`${id}-country`}
              className="input input-short"
              value={countryText}
              disabled={!canChange}
              onChange={(e) => setCountryText(e.target.value)}
              spellCheck={false}
              autoComplete="off"
            />
            {canChange ? (
              <Button
                type="submit"
                size="sm"
                disabled={!countryText.trim() || countryText.trim() === choices?.country}
              >
                Apply
              </Button>
            ) : null}
          </div>
        </form>
      </div>

      <h4 className="subsection-title" id={`${id}-variables-title`}>
        Prompt variables
      </h4>
      {canChange ? (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-agent`}>
            Agent
          </label>
          <select
            id={`${id}-agent`}
            className="select"
            value={chosenAgent}
            disabled={agents.loading}
            onChange={(e) => chooseAgent(e.target.value)}
            aria-describedby={`${id}-agent-hint`}
          >
            <option value="">No agent (type variables)</option>
            {agents.agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
          <p className={agents.error ? 'field-error' : 'field-hint'} id={`${id}-agent-hint`}>
            {agents.loading
              ? 'Loading the workspace’s agents…'
              : agents.error
                ? `Agents could not be loaded: ${agents.error.replace(/[^.!?]$/, '$&.')} You can still type the variables.`
                : 'Use an agent’s prompt variables; you can still edit them below.'}
          </p>
        </div>
      ) : null}
      {variables.length === 0 ? (
        <p className="muted">
          No variables: the upload file gets every column of the file. Add the agent&apos;s variables to check
          each row has them and upload only those columns.
        </p>
      ) : (
        <table className="mapping-table" aria-labelledby={`${id}-variables-title`}>
          <thead>
            <tr>
              <th scope="col">Variable</th>
              <th scope="col">Column</th>
              <th scope="col">Optional</th>
              {canChange ? (
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {variables.map((v, i) => (
              <tr key={v.variable}>
                <th scope="row">{v.variable}</th>
                <td>
                  <select
                    className="select"
                    aria-label={`Column for ${v.variable}`}
                    value={v.column}
                    disabled={!canChange}
                    onChange={(e) =>
                      setMapping(variables.map((m, j) => (j === i ? { ...m, column: e.target.value } : m)))
                    }
                  >
                    <option value="">— not mapped —</option>
                    {columnOptions}
                  </select>
                  {v.column === '' ? <span className="warn-text"> not checked, not uploaded</span> : null}
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${v.variable} is optional`}
                    checked={v.optional}
                    disabled={!canChange}
                    onChange={(e) =>
                      setMapping(
                        variables.map((m, j) => (j === i ? { ...m, optional: e.target.checked } : m)),
                      )
                    }
                  />
                </td>
                {canChange ? (
                  <td>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setMapping(variables.filter((_, j) => j !== i))}
                    >
                      Remove<span className="visually-hidden"> {v.variable}</span>
                    </Button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canChange ? (
        <form
          className="inline-controls"
          onSubmit={(e) => {
            e.preventDefault();
            const name = newVariable.trim();
            if (!name || variables.some((v) => v.variable.toLowerCase() === name.toLowerCase())) return;
            setNewVariable('');
            setMapping([...variables, { variable: name, column: '', optional: false }]);
          }}
        >
          <input
            className="input"
            aria-label="New variable name"
            placeholder="Add a variable"
            value={newVariable}
            onChange={(e) => setNewVariable(e.target.value)}
            spellCheck={false}
          />
          <Button type="submit" size="sm" disabled={!newVariable.trim()}>
            Add variable
          </Button>
        </form>
      ) : null}
    </section>
  );
}
