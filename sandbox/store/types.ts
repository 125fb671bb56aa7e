// Row shapes of the sandbox tables, as better-sqlite3 returns them (JSON columns are text).

export interface CallRow {
  rowid: number;
  id: string;
  source: 'individual' | 'campaign' | 'seeded';
  created_at: number;
  updated_at: number;
  to_number: string;
  name: string | null;
  callee_name: string | null;
  status: string;
  sub_status: string | null;
  transcript: string | null;
  recording_token: string | null;
  recording_path: string | null;
  recording_expires_at: number | null;
  agent_id: string;
  agent_name: string | null;
  agent_version_id: string | null;
  version_slug: string | null;
  orchestration_mode: string | null;
  call_duration: number | null;
  call_attempt_time: number | null;
  call_cost: number | null;
  call_type: string;
  call_direction: string;
  inbound_from: string | null;
  credits_processed: number;
  from_numbers: string;
  from_number_id: string | null;
  number_pool_id: string | null;
  voicemail_detected: number;
  bulk_list_id: string | null;
  row_number: number | null;
  attempt_count: number;
  next_attempt_at: number | null;
  custom_args_values: string;
  prompt_text: string | null;
  callback_url: string | null;
  callback_args: string | null;
  call_config: string | null;
  window_start_at: number | null;
  window_end_at: number | null;
  concurrency_percentage: number | null;
  voice_id: string | null;
  call_category: string | null;
  parent_call_id: string | null;
  analysis: string | null;
}

/** What inserting a call needs; everything else has a column default. */
export type NewCall = Pick<CallRow, 'id' | 'source' | 'created_at' | 'to_number' | 'status' | 'agent_id'> &
  Partial<Omit<CallRow, 'rowid'>>;

export interface AgentRow {
  id: string;
  display_name: string;
  agent_type: string;
  language: string;
  orchestration_mode: string;
  active_version_id: string | null;
  template_name: string | null;
  intro_message: string | null;
  voice: string | null;
  event_subscriptions: string;
  is_archived: number;
  created_at: number;
  updated_at: number;
}

export interface AgentVersionRow {
  id: string;
  agent_id: string;
  slug: string;
  description: string | null;
  prompt_sections: string;
  custom_variables: string;
  call_traffic: number;
  created_at: number;
}

export interface NumberRow {
  id: string;
  number: string;
  number_pool_id: string | null;
  provider: string;
  display_name: string | null;
  agent_id: string | null;
  is_spam: number;
  created_at: number;
}

export interface BulkListRow {
  id: string;
  flow: 'large' | 'standard';
  agent_id: string;
  campaign_name: string;
  country_code: string;
  variables_map: string;
  call_config: string | null;
  campaign_start_time: string | null;
  campaign_end_time: string | null;
  start_at: number | null;
  end_at: number | null;
  remove_invalid_rows: number;
  transliterate_callee_name: number;
  header: string;
  file_name: string | null;
  status: string;
  total_rows: number;
  valid_rows: number;
  invalid_rows: number;
  invalid_csv_token: string | null;
  outcome: 'completed' | 'failed';
  outcome_message: string | null;
  processing_starts_at: number;
  processing_ends_at: number;
  started_at: number | null;
  from_numbers: string | null;
  number_pool_id: string | null;
  concurrency_percentage: number | null;
  callback_url: string | null;
  email_completion_user_ids: string | null;
  terminated_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface BulkListEntryRow {
  bulk_list_id: string;
  row_number: number;
  line_number: number;
  valid: number;
  reason: string | null;
  mobile_number: string | null;
  callee_name: string | null;
  custom_args_values: string;
  cells: string;
}

export interface WebhookDeliveryRow {
  id: number;
  call_id: string | null;
  event_type: string;
  source: 'subscription' | 'callback';
  target_url: string;
  method: string;
  request_headers: string;
  payload: string;
  attempt: number;
  status: 'pending' | 'delivered' | 'failed' | 'gave_up';
  response_status: number | null;
  error: string | null;
  scheduled_at: number | null;
  attempted_at: number | null;
  created_at: number;
}

export interface RecordingRow {
  token: string;
  call_id: string;
  file_path: string;
  content_type: string;
  size_bytes: number;
  duration_seconds: number | null;
  created_at: number;
  expires_at: number;
}

export interface StartAttemptRow {
  id: number;
  bulk_list_id: string;
  endpoint: string;
  outcome: 'accepted' | 'refused';
  reason: string | null;
  status_code: number;
  at: number;
}
