// Numbered migrations, tracked by SQLite's user_version. Append only: never edit a shipped one.
// Times are epoch milliseconds (virtual clock); JSON columns hold exactly what the wire carries.

export const migrations: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'initial',
    sql: `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE workspace (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  credits REAL NOT NULL,
  locked_credits REAL NOT NULL DEFAULT 0
);

CREATE TABLE agents (
  id TEXT PRIMARY KEY,
  display_name TEXT NOT NULL,
  agent_type TEXT NOT NULL DEFAULT 'outbound',
  language TEXT NOT NULL DEFAULT 'en-IN',
  orchestration_mode TEXT NOT NULL DEFAULT 'single_node',
  active_version_id TEXT,
  template_name TEXT,
  intro_message TEXT,
  voice TEXT,                                  -- JSON {id,name}
  event_subscriptions TEXT NOT NULL DEFAULT '[]', -- JSON, replaced by edit_event_subscriptions
  is_archived INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE agent_versions (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id),
  slug TEXT NOT NULL,
  description TEXT,
  prompt_sections TEXT NOT NULL,               -- JSON [{section_title, section_content}]
  custom_variables TEXT NOT NULL,              -- JSON ["callee_name", ...]
  call_traffic REAL NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX agent_versions_agent ON agent_versions(agent_id);

CREATE TABLE number_pools (id TEXT PRIMARY KEY, name TEXT NOT NULL);

CREATE TABLE numbers (
  id TEXT PRIMARY KEY,
  number TEXT NOT NULL UNIQUE,
  number_pool_id TEXT REFERENCES number_pools(id),
  provider TEXT NOT NULL,
  display_name TEXT,
  agent_id TEXT,
  is_spam INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

-- A large-campaign bulk list or a standard-flow contact list (both are "campaigns").
CREATE TABLE bulk_lists (
  id TEXT PRIMARY KEY,
  flow TEXT NOT NULL,                          -- 'large' | 'standard'
  agent_id TEXT NOT NULL,
  campaign_name TEXT NOT NULL,
  country_code TEXT NOT NULL,
  variables_map TEXT NOT NULL,                 -- JSON
  call_config TEXT,                            -- JSON
  campaign_start_time TEXT,                    -- as sent, DD/MM/YYYY, HH:MM
  campaign_end_time TEXT,
  start_at INTEGER,                            -- the same, as instants
  end_at INTEGER,
  remove_invalid_rows INTEGER NOT NULL DEFAULT 0,
  transliterate_callee_name INTEGER NOT NULL DEFAULT 0,
  header TEXT NOT NULL,                        -- JSON list of CSV headers
  file_name TEXT,
  status TEXT NOT NULL,                        -- verifying|processing|completed|failed|uploaded|scheduled
  total_rows INTEGER NOT NULL,
  valid_rows INTEGER NOT NULL,
  invalid_rows INTEGER NOT NULL,
  invalid_csv_token TEXT,
  outcome TEXT NOT NULL,                       -- final processing status: completed | failed
  outcome_message TEXT,
  processing_starts_at INTEGER NOT NULL,
  processing_ends_at INTEGER NOT NULL,
  started_at INTEGER,
  from_numbers TEXT,                           -- JSON
  number_pool_id TEXT,
  concurrency_percentage INTEGER,
  callback_url TEXT,
  email_completion_user_ids TEXT,              -- JSON
  terminated_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX bulk_lists_created ON bulk_lists(created_at);

CREATE TABLE bulk_list_rows (
  bulk_list_id TEXT NOT NULL REFERENCES bulk_lists(id),
  row_number INTEGER NOT NULL,                 -- 1-based data row (header excluded)
  line_number INTEGER NOT NULL,                -- physical line in the file
  valid INTEGER NOT NULL,
  reason TEXT,
  mobile_number TEXT,                          -- E.164 when valid
  callee_name TEXT,
  custom_args_values TEXT NOT NULL,            -- JSON, variable → value
  cells TEXT NOT NULL,                         -- JSON list of the original cells
  PRIMARY KEY (bulk_list_id, row_number)
) WITHOUT ROWID;

CREATE TABLE calls (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  source TEXT NOT NULL,                        -- individual | campaign | seeded
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  to_number TEXT NOT NULL,
  name TEXT,
  callee_name TEXT,
  status TEXT NOT NULL,
  sub_status TEXT,
  transcript TEXT,                             -- JSON-encoded list of turns, as served
  recording_token TEXT,                        -- audio_recording = <base>/recordings/<token>
  recording_path TEXT,
  recording_expires_at INTEGER,
  agent_id TEXT NOT NULL,
  agent_name TEXT,
  agent_version_id TEXT,
  version_slug TEXT,
  orchestration_mode TEXT,
  call_duration REAL,
  call_attempt_time INTEGER,
  call_cost REAL,
  call_type TEXT NOT NULL DEFAULT 'outbound',
  call_direction TEXT NOT NULL DEFAULT 'outbound',
  inbound_from TEXT,
  credits_processed INTEGER NOT NULL DEFAULT 0,
  from_numbers TEXT NOT NULL DEFAULT '[]',     -- JSON: caller numbers used
  from_number_id TEXT,                         -- as requested (JSON when a list)
  number_pool_id TEXT,
  voicemail_detected INTEGER NOT NULL DEFAULT 0,
  bulk_list_id TEXT,
  row_number INTEGER,
  attempt_count INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  custom_args_values TEXT NOT NULL DEFAULT '{}',
  prompt_text TEXT,                            -- agent prompt with the values substituted
  callback_url TEXT,
  callback_args TEXT,                          -- JSON {headers, params}
  call_config TEXT,                            -- JSON
  window_start_at INTEGER,                     -- campaign window, when a campaign call
  window_end_at INTEGER,
  concurrency_percentage INTEGER,
  voice_id TEXT,
  call_category TEXT,
  parent_call_id TEXT,
  analysis TEXT                                -- JSON {platform_analysis, client_analysis}
);
CREATE INDEX calls_created ON calls(created_at);
CREATE INDEX calls_bulk ON calls(bulk_list_id, created_at) WHERE bulk_list_id IS NOT NULL;
CREATE INDEX calls_agent ON calls(agent_id, created_at);
CREATE INDEX calls_status ON calls(status, created_at);
-- The dialer's work queue: only calls that may still be dialled are indexed.
CREATE INDEX calls_due ON calls(next_attempt_at) WHERE status IN ('registered', 'retry');

CREATE TABLE start_attempts (
  id INTEGER PRIMARY KEY,
  bulk_list_id TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  outcome TEXT NOT NULL,                       -- accepted | refused
  reason TEXT,
  status_code INTEGER NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX start_attempts_list ON start_attempts(bulk_list_id);

-- Filled by sandbox/webhooks (one row per delivery attempt).
CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY,
  call_id TEXT,
  event_type TEXT NOT NULL,
  source TEXT NOT NULL,                        -- subscription | callback
  target_url TEXT NOT NULL,
  method TEXT NOT NULL,
  request_headers TEXT NOT NULL DEFAULT '{}',
  payload TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL,                        -- pending | delivered | failed | gave_up
  response_status INTEGER,
  error TEXT,
  scheduled_at INTEGER,
  attempted_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_call ON webhook_deliveries(call_id);

-- Filled by sandbox/dialer (recordings.ts registers files; URLs expire 24 h after the call).
CREATE TABLE recordings (
  token TEXT PRIMARY KEY,
  call_id TEXT NOT NULL,
  file_path TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  duration_seconds REAL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX recordings_call ON recordings(call_id);
`,
  },
];

export const latestVersion = migrations[migrations.length - 1]?.version ?? 0;
