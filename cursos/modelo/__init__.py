"""Un modelo de verdad con la forma del guionizado (ModeloReal) y el guionizado servido por HTTP."""
