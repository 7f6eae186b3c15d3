-- A company watch saved with a website keeps what the site said (data/intelligence/match.ts CompanyProfile,
-- as JSON), read once through the SSRF-safe fetcher when it was saved, so the nightly run ranks new tenders
-- against it without reading the site every night. Null for other kinds and for the built-in examples.
ALTER TABLE watches ADD COLUMN company_profile TEXT;
