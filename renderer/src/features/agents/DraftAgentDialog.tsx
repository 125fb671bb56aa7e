import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { extractPlaceholders } from '../../../../shared/domain/template.ts';
import type { AgentDetail } from '../../../../shared/ipc/channels/agents.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { TextField } from '../../components/Field.tsx';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { useAgentsLibrary } from '../../shared-agents/agentsLibraryStore.ts';

type Errors = Partial<Record<'name' | 'prompt' | 'language' | 'form', string>>;

/** Make (or edit) a local draft agent from a pasted prompt; its variables are the prompt's placeholders. */
export function DraftAgentDialog({ agent, onClose }: { agent: AgentDetail | null; onClose: () => void }) {
  const id = useId();
  const [name, setName] = useState(agent?.name ?? '');
  const [language, setLanguage] = useState(agent?.language ?? '');
  const [prompt, setPrompt] = useState(agent?.draftPrompt ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const load = useAgentsLibrary((s) => s.load);
  const select = useAgentsLibrary((s) => s.select);
  const applyDetail = useAgentsLibrary((s) => s.applyDetail);
  const variables = extractPlaceholders(prompt);
  // A field's error (and the form's) answers for what it held: typing there drops it.
  const edit = (field: 'name' | 'language' | 'prompt', set: (value: string) => void) => (value: string) => {
    set(value);
    setErrors(({ [field]: _field, form: _form, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = {};
    if (!name.trim()) next.name = 'Name is required';
    if (!prompt.trim()) next.prompt = 'Paste the prompt';
    if (Object.keys(next).length) {
      setErrors(next);
      return;
    }
    setSaving(true);
    const lang = language.trim() ? { language: language.trim() } : {};
    const result = agent
      ? await desk().agents.updateDraft({ agentId: agent.id, name: name.trim(), prompt, ...lang })
      : await desk().agents.createDraft({ name: name.trim(), prompt, ...lang });
    setSaving(false);
    if (!result.ok) {
      const field = result.error.field?.split('.').pop();
      if (field === 'name' || field === 'prompt' || field === 'language')
        setErrors({ [field]: result.error.message });
      else setErrors({ form: result.error.message });
      return;
    }
    toast.success(agent ? 'Local draft saved' : `Local draft “${result.value.agent.name}” made`);
    applyDetail(result.value.agent);
    await load();
    await select(result.value.agent.id);
    onClose();
  };

  return (
    <Dialog
      open
      title={agent ? `Edit ${agent.name}` : 'New local draft agent'}
      description="A local draft lives on this computer only: use it to map and check a contact list before the agent is synced. It cannot be launched against."
      onClose={onClose}
    >
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="dialog-body">
          <TextField
            label="Name"
            value={name}
            onChange={edit('name', setName)}
            error={errors.name}
            autoComplete="off"
          />
          <TextField
            label="Language"
            optional
            value={language}
            onChange={edit('language', setLanguage)}
            error={errors.language}
            hint="For example en-IN or hi-IN."
            autoComplete="off"
          />
          <div className={['field', errors.prompt ? 'field-invalid' : ''].filter(Boolean).join(' ')}>
            <label className="field-label" htmlFor={`${id}-prompt`}>
              Prompt
            </label>
            <textarea
              id={`${id}-prompt`}
              className="input textarea"
              rows={10}
              value={prompt}
              onChange={(e) => edit('prompt', setPrompt)(e.target.value)}
              aria-invalid={errors.prompt ? true : undefined}
              aria-describedby={`${id}-prompt-hint${errors.prompt ? ` ${id}-prompt-error` : ''}`}
              spellCheck={false}
            />
            {errors.prompt ? (
              <p className="field-error" id={`${id}-prompt-error`}>
                {errors.prompt}
              </p>
            ) : null}
            <p className="field-hint" id={`${id}-prompt-hint`}>
              {variables.length
                ? `Variables found: ${variables.join(', ')}`
                : 'Variables are the prompt’s @{{name}} placeholders; callee_name is always present.'}
            </p>
          </div>
          {errors.form ? (
            <p className="field-error" role="alert">
              {errors.form}
            </p>
          ) : null}
        </div>
        <div className="dialog-footer">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={saving}>
            {agent ? 'Save draft' : 'Make draft'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
