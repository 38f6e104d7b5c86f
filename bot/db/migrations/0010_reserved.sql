-- Number 0010 is h/float's migration (a float account per table), merged separately: this
-- placeholder only keeps the numbers without a gap until then, and is deleted by that merge.
SELECT 1;
