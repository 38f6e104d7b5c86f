-- Number 0011 is h/audit's migration (audit checkpoints), merged separately: this
-- placeholder only keeps the numbers without a gap until then, and is deleted by that merge.
SELECT 1;
