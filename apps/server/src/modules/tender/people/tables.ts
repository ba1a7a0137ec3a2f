/** Table types of migrations 0037_tender_people and 0039_tender_renewal (declaration merging, as the other areas' tables.ts do). */
import '../../../db/schema.js';

export interface TenderPersonnelTable {
  user_id: string;
  id_card: string;
  gender: number;
  birth_date: string | null;
  education: number;
  school: string;
  major: string;
  graduation_date: string | null;
  hire_date: string | null;
  remark: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

export interface TenderCertKindTable {
  id: string;
  name: string;
  /** JSON array of level names. */
  levels: string;
  has_speciality: number;
  valid_years: number | null;
  /** 延期办理期 in months (0039); null: no renewal window. */
  renew_months: number | null;
  sort: number;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

export interface TenderTitleTable {
  id: string;
  user_id: string;
  /** TitleLevel */
  level: number;
  title_name: string;
  speciality: string;
  cert_no: string;
  issuer: string;
  issue_date: string;
  remark: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

export interface TenderCertificateTable {
  id: string;
  user_id: string;
  kind_id: string;
  level: string;
  speciality: string;
  cert_no: string;
  issuer: string;
  valid_from: string;
  valid_to: string | null;
  company: string;
  remark: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

export interface TenderCertReminderTable {
  cert_id: string;
  valid_to: string;
  mark: number;
  sent_on: string;
  created_at: string;
}

declare module '../../../db/schema.js' {
  interface Database {
    tender_personnel: TenderPersonnelTable;
    tender_cert_kinds: TenderCertKindTable;
    tender_titles: TenderTitleTable;
    tender_certificates: TenderCertificateTable;
    tender_cert_reminders: TenderCertReminderTable;
  }
}
